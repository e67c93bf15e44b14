// E-mail to tenant owners over SMTP (nodemailer) with a bounded retry; the outbox retries a mail that still failed.
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
  /** `<id@domain>`: the same for every resend of one notification. */
  messageId?: string;
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the message; rejects after the last try. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface SmtpOptions {
  host: string;
  port: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  secure?: boolean;
  /** Never upgrade with STARTTLS (local relays and test sinks). */
  ignoreTLS?: boolean;
  auth?: { user: string; pass: string };
  from: string;
  /** Tries per message (default 3). */
  tries?: number;
  /** Pause before the second try, doubled for each further one (default 1 s). */
  retryDelayMs?: number;
  /** Socket timeouts (default 10 s): a hung relay must not hold notifications forever. */
  timeoutMs?: number;
}

export function smtpMailer(o: SmtpOptions): Mailer {
  const timeout = o.timeoutMs ?? 10_000;
  const transport = nodemailer.createTransport({
    host: o.host,
    port: o.port,
    secure: o.secure ?? false,
    ignoreTLS: o.ignoreTLS ?? false,
    auth: o.auth,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  const tries = Math.max(1, o.tries ?? 3);
  const delay = o.retryDelayMs ?? 1000;
  return {
    async send(m) {
      let last: unknown;
      for (let i = 0; i < tries; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, delay * 2 ** (i - 1)));
        try {
          await transport.sendMail({
            from: o.from,
            to: m.to,
            subject: m.subject,
            text: m.text,
            ...(m.messageId ? { messageId: m.messageId } : {}),
          });
          return;
        } catch (err) {
          last = err;
        }
      }
      throw last;
    },
    close() {
      transport.close();
    },
  };
}
