import type { TelegramSettings, Webhook, WebhookDelivery } from '../../src/lib/contract';

/** The Telegram settings of a user who has not connected a chat yet. */
export const telegramOff: TelegramSettings = {
  available: true,
  bot: 'shorts_office_bot',
  state: 'off',
  code: null,
  codeExpiresAt: null,
  link: null,
  chatName: null,
  failure: null,
  events: ['post.failed', 'post.held', 'grant.revoked', 'profile.unhealthy'],
  digest: true,
};

export const webhook: Webhook = {
  id: 7,
  url: 'https://n8n.example.com/webhook/shorts',
  events: ['post.failed', 'post.published'],
  createdAt: '2026-11-21T08:00:00.000Z',
  lastDelivery: { state: 'pending', at: '2026-11-22T09:30:00.000Z', status: 503, error: 'status' },
};

export const deliveries: WebhookDelivery[] = [
  {
    id: 12,
    messageId: 'msg_0c4f3a9e2b7d4e18a6f1c2d3e4f5a6b7',
    event: 'post.failed',
    state: 'pending',
    attempts: 2,
    createdAt: '2026-11-22T09:29:00.000Z',
    lastAttemptAt: '2026-11-22T09:30:00.000Z',
    nextAttemptAt: '2026-11-22T09:31:00.000Z',
    deliveredAt: null,
    status: 503,
    answer: 'Service Unavailable',
    error: 'status',
    body: '{"event":"post.failed"}',
  },
  {
    id: 11,
    messageId: 'msg_9b8a7c6d5e4f43a2b1c0d9e8f7a6b5c4',
    event: 'post.published',
    state: 'delivered',
    attempts: 1,
    createdAt: '2026-11-22T08:00:00.000Z',
    lastAttemptAt: '2026-11-22T08:00:01.000Z',
    nextAttemptAt: null,
    deliveredAt: '2026-11-22T08:00:01.000Z',
    status: 200,
    answer: 'ok',
    error: null,
    body: '{"event":"post.published"}',
  },
];
