// Notifications (docs/rules.md#notifications, issue 4): notices, operational webhooks and owner e-mail on every health and breaker transition.
export { Notifier, createNotifier, type NotifierOptions } from './notifier.ts';
export { smtpMailer, type Mailer, type MailMessage, type SmtpOptions } from './mailer.ts';
export { healthNotice, breakerNotice, deliveryFailedNotice, mailSubject, mailText, type NoticeDraft, type NoticeKind } from './notice-text.ts';
