// Notifications (docs/rules.md#notifications): the sender of the engine's outbox — notices, operational webhooks and owner e-mail.

export { type Mailer, type MailMessage, type SmtpOptions, smtpMailer } from './mailer.ts';
export { type NoticeDraft, type NoticeKind, noticeOf } from './notice-text.ts';
export { createNotifier, Notifier, type NotifierOptions } from './notifier.ts';
