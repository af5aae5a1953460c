import { Service } from 'electrodb';
// issue 15 (contacts3): quick replies
import { QuickReplyEntity } from '../reply/reply.entity.ts';
// issue 15 (groups): group templates
import { GroupRequestEntity, GroupTemplateEntity } from '../group-template/group-template.entity.ts';
import { ContactImportChunkEntity, ContactImportEntity } from '../contact/import.entity.ts';
import { config } from '../config.ts';
import { documentClient } from './client.ts';
import { OrganizationEntity } from '../org/organization.entity.ts';
import { MemberEntity } from '../member/member.entity.ts';
import { UserEntity } from '../user/user.entity.ts';
import { PhoneEntity } from '../phone/phone.entity.ts';
import { ContactEntity } from '../contact/contact.entity.ts';
import { ChatCounterEntity, ChatEntity, ChatLabelEntity, ChatGroupLinkEntity, ChatLabelLinkEntity, ChatPropertyLinkEntity, MemberChatStateEntity } from '../chat/chat.entity.ts';
import { MessageEntity } from '../message/message.entity.ts';
import { WaMessageRefEntity } from '../message/wa-message-ref.entity.ts';
import { ReactionEntity } from '../message/reaction.entity.ts';
import { ConnectionEntity } from '../realtime/connection.entity.ts';
import { ActiveSessionEntity } from '../realtime/active-session.entity.ts';
import { TicketAuditEntity, TicketCounterEntity, TicketEntity, TicketLabelLinkEntity, TicketMessageEntity, TicketSettingsEntity } from '../ticket/ticket.entity.ts';
import { TaskAuditEntity, TaskEntity } from '../task/task.entity.ts';
import { MediaItemEntity } from '../media/media-item.entity.ts';
import { WebhookRejectionEntity } from '../whatsapp/webhook-rejection.entity.ts';
import { WaWebAuthEntity, WaWebSessionEntity } from '../whatsapp/web/wa-web-session.entity.ts';
import { NotificationEntity } from '../notification/notification.entity.ts';
import { BulkJobEntity, BulkJobItemEntity } from '../bulk/bulk-job.entity.ts';
import { OtpCodeEntity } from '../auth/otp-code.entity.ts';
import { UserIdentityEntity } from '../auth/identity.entity.ts';
import { AuthThrottleEntity } from '../auth/auth-throttle.entity.ts';
import { OutboxEventEntity } from '../outbox/outbox-event.entity.ts';
import { ConsumerReceiptEntity } from '../outbox/consumer-receipt.entity.ts';
import { PushSubscriptionEntity } from '../push/push-subscription.entity.ts';
// issue 20: API keys
import { ApiKeyEntity, ApiRequestLogEntity } from '../apikey/api-key.entity.ts';
// issue 20: outbound webhooks
import { WebhookDeliveryEntity, WebhookEndpointEntity } from '../webhooks/webhook.entity.ts';
// issue 18: AI agent
import { AiDecisionEntity, AiFaqEntity, AiSettingsEntity } from '../ai/ai.entity.ts';
// issue 19: analytics aggregates and the audit log
import { AnalyticsChatStateEntity, AnalyticsDailyEntity, AnalyticsHourlyEntity } from '../analytics/analytics.entity.ts';
import { AuditEntryEntity } from '../audit/audit.entity.ts';
// issue 15: contacts, custom properties, quick replies
import { ContactAuditEntity, ContactFacetEntity } from '../contact/contact.entity.ts';
// issue 41: customer identifiers (phone, BSUID, parent BSUID)
import { CustomerIdEntity } from '../contact/customer-id.entity.ts';
import { PropertyDefEntity } from '../property/property.entity.ts';
// issue 17: automation rules
import { RuleActionEntity, RuleEntity, RuleLogEntity, RulePendingEntity, RuleRateEntity, RuleSampleEntity, RuleVersionEntity } from '../rules/rule.entity.ts';
// issue 17: SLA policies and breaches
import { SlaBreachEntity, SlaPolicyEntity } from '../sla/sla.entity.ts';
// issue 16: WhatsApp message templates
import { TemplateEntity } from '../template/template.entity.ts';
import { ScheduledMessageEntity } from '../schedule/scheduled-message.entity.ts';

import { ParkedChangeEntity } from '../message/parked-change.entity.ts';
// issue 16: broadcasts
import { BroadcastAudienceEntity, BroadcastEntity, BroadcastPhoneLimitEntity, BroadcastRecipientEntity, BroadcastRefEntity, BroadcastUsageEntity } from '../broadcast/broadcast.entity.ts';
import { BroadcastUploadEntity } from '../broadcast/broadcast-upload.entity.ts';
const entities = {
  organization: OrganizationEntity,
  member: MemberEntity,
  user: UserEntity,
  phone: PhoneEntity,
  contact: ContactEntity,
  chat: ChatEntity,
  chatLabelLink: ChatLabelLinkEntity,
  chatPropertyLink: ChatPropertyLinkEntity,
  chatGroupLink: ChatGroupLinkEntity,
  chatCounter: ChatCounterEntity,
  memberChatState: MemberChatStateEntity,
  chatLabel: ChatLabelEntity,
  message: MessageEntity,
  waMessageRef: WaMessageRefEntity,
  reaction: ReactionEntity,
  // issue 23: changes that arrived before their target message
  parkedChange: ParkedChangeEntity,
  connection: ConnectionEntity,
  activeSession: ActiveSessionEntity,
  webhookRejection: WebhookRejectionEntity,
  waWebSession: WaWebSessionEntity,
  waWebAuth: WaWebAuthEntity,
  ticket: TicketEntity,
  ticketLabelLink: TicketLabelLinkEntity,
  ticketMessage: TicketMessageEntity,
  ticketAudit: TicketAuditEntity,
  ticketCounter: TicketCounterEntity,
  ticketSettings: TicketSettingsEntity,
  task: TaskEntity,
  taskAudit: TaskAuditEntity,
  mediaItem: MediaItemEntity,
  notification: NotificationEntity,
  bulkJob: BulkJobEntity,
  bulkJobItem: BulkJobItemEntity,
  otpCode: OtpCodeEntity,
  userIdentity: UserIdentityEntity,
  authThrottle: AuthThrottleEntity,
  outboxEvent: OutboxEventEntity,
  consumerReceipt: ConsumerReceiptEntity,
  pushSubscription: PushSubscriptionEntity,
  // issue 20: API keys
  apiKey: ApiKeyEntity,
  apiRequestLog: ApiRequestLogEntity,
  // issue 20: outbound webhooks
  webhookEndpoint: WebhookEndpointEntity,
  webhookDelivery: WebhookDeliveryEntity,
  // issue 18: AI agent
  aiFaq: AiFaqEntity,
  aiSettings: AiSettingsEntity,
  aiDecision: AiDecisionEntity,
  // issue 19: analytics aggregates and the audit log
  analyticsDaily: AnalyticsDailyEntity,
  analyticsHourly: AnalyticsHourlyEntity,
  analyticsChatState: AnalyticsChatStateEntity,
  auditEntry: AuditEntryEntity,
  // issue 15: contacts, custom properties, quick replies
  contactFacet: ContactFacetEntity,
  contactAudit: ContactAuditEntity,
  // issue 41: customer identifiers
  customerId: CustomerIdEntity,
  propertyDef: PropertyDefEntity,
  // issue 17: automation rules
  rule: RuleEntity,
  ruleVersion: RuleVersionEntity,
  ruleLog: RuleLogEntity,
  ruleAction: RuleActionEntity,
  rulePending: RulePendingEntity,
  ruleRate: RuleRateEntity,
  ruleSample: RuleSampleEntity,
  // issue 17: SLA policies and breaches
  slaPolicy: SlaPolicyEntity,
  slaBreach: SlaBreachEntity,
  // issue 16: WhatsApp message templates
  waTemplate: TemplateEntity,
  scheduledMessage: ScheduledMessageEntity,
  // issue 15 (contacts3): quick replies
  quickReply: QuickReplyEntity,
  contactImport: ContactImportEntity,
  contactImportChunk: ContactImportChunkEntity,
  // issue 16: broadcasts
  broadcast: BroadcastEntity,
  broadcastRecipient: BroadcastRecipientEntity,
  broadcastUsage: BroadcastUsageEntity,
  broadcastRef: BroadcastRefEntity,
  broadcastPhoneLimit: BroadcastPhoneLimitEntity,
  broadcastAudience: BroadcastAudienceEntity,
  broadcastUpload: BroadcastUploadEntity,
  // issue 15 (groups): group templates and group requests
  groupTemplate: GroupTemplateEntity,
  groupRequest: GroupRequestEntity,
};

function build() {
  return new Service(entities, { client: documentClient(), table: config().TABLE_NAME });
}

let service: ReturnType<typeof build> | undefined;

/** The one ElectroDB Service over the single table (see ACCESS_PATTERNS.md). Built once per process. */
export function db(): ReturnType<typeof build> {
  service ??= build();
  return service;
}

/** Forget the service (tests and the local runtime after changing TABLE_NAME / endpoint). */
export function resetDb(): void {
  service = undefined;
}
