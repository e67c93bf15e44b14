// Notifications (docs/rules.md#notifications): the sender of the engine's outbox — notices, operational webhooks and owner e-mail.
export { Notifier, createNotifier, type NotifierOptions } from './notifier.ts';
export { smtpMailer, type Mailer, type MailMessage, type SmtpOptions } from './mailer.ts';
export { noticeOf, type NoticeDraft, type NoticeKind } from './notice-text.ts';
