import { describe, expect, it } from 'vitest';
import { buildTemplateSend, fillTemplate, placeholders, templateValueProblems, templateVariables, windowState, type TemplateLike } from './template.rules.ts';
import { MetaTemplate } from './template.schemas.ts';
import { SERVICE_WINDOW_MS } from '../chat/chat.rules.ts';
import { AppError } from '../errors.ts';

// Meta "Message templates": a template as GET /{waba_id}/message_templates returns it (seasonal_promotion example)
const seasonal = MetaTemplate.parse({
  name: 'seasonal_promotion',
  parameter_format: 'POSITIONAL',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Our {{1}} is on!', example: { header_text: ['Summer Sale'] } },
    { type: 'BODY', text: 'Shop now through {{1}} and use code {{2}} to get {{3}} off of all merchandise.', example: { body_text: [['the end of August', '25OFF', '25%']] } },
    { type: 'FOOTER', text: 'Use the buttons below to manage your marketing subscriptions' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Unsubscribe from Promos' },
        { type: 'URL', text: 'Shop', url: 'https://www.luckyshrub.com/shop?promo={{1}}', example: ['https://www.luckyshrub.com/shop?promo=summer'] },
        { type: 'PHONE_NUMBER', text: 'Call', phone_number: '15550051310' },
      ],
    },
  ],
  language: 'en_US',
  status: 'APPROVED',
  category: 'MARKETING',
  id: '546151681022936',
});

const imageHeader: TemplateLike = {
  name: 'order_shipped',
  language: 'en_US',
  status: 'APPROVED',
  components: [
    { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::x'] } },
    { type: 'BODY', text: 'Hi {{1}}, order {{2}}' },
  ],
};

describe('templateVariables', () => {
  it('lists header, body and URL button variables with Meta examples', () => {
    expect(templateVariables(seasonal).map((v) => [v.key, v.example])).toEqual([
      ['header.1', 'Summer Sale'],
      ['body.1', 'the end of August'],
      ['body.2', '25OFF'],
      ['body.3', '25%'],
      ['button.1.1', 'summer'],
    ]);
  });
  it('a media header is one variable of its kind', () => {
    expect(templateVariables(imageHeader)[0]).toMatchObject({ key: 'header.media', kind: 'image' });
  });
  it('orders positional placeholders by number and keeps named ones in order', () => {
    expect(placeholders('{{2}} then {{1}} and {{2}}')).toEqual(['1', '2']);
    expect(placeholders('Hi {{first_name}}, order {{order_id}}')).toEqual(['first_name', 'order_id']);
  });
});

describe('buildTemplateSend', () => {
  const ONE = { to: '1', recipient_type: 'individual' } as const;
  it("matches Meta's documented template message shape", () => {
    const body = buildTemplateSend({ to: '+16505551234', recipient_type: 'individual' }, seasonal, { 'header.1': 'Winter Sale', 'body.1': 'Sunday', 'body.2': 'WIN10', 'body.3': '10%', 'button.1.1': 'winter' });
    expect(body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '+16505551234',
      type: 'template',
      template: {
        name: 'seasonal_promotion',
        language: { code: 'en_US' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: 'Winter Sale' }] },
          { type: 'body', parameters: [{ type: 'text', text: 'Sunday' }, { type: 'text', text: 'WIN10' }, { type: 'text', text: '10%' }] },
          { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'winter' }] },
        ],
      },
    });
  });
  it('sends a media header by link', () => {
    const body = buildTemplateSend({ to: '447700900123', recipient_type: 'individual' }, imageHeader, { 'header.media': 'https://cdn.example.com/box.jpg', 'body.1': 'Ana', 'body.2': '#1' });
    expect(body.template.components![0]).toEqual({ type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/box.jpg' } }] });
  });
  it('a customer known only by BSUID gets recipient instead of to (Meta "Business-scoped user IDs")', () => {
    const body = buildTemplateSend({ recipient: 'BR.17730000000000000001', recipient_type: 'individual' }, { name: 'hello_world', language: 'en_US', components: [{ type: 'BODY', text: 'Hello World' }] });
    expect(body).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', recipient: 'BR.17730000000000000001', type: 'template', template: { name: 'hello_world', language: { code: 'en_US' } } });
    expect(body).not.toHaveProperty('to');
  });
  it('leaves components out for a template without variables', () => {
    const body = buildTemplateSend(ONE, { name: 'hello_world', language: 'en_US', components: [{ type: 'BODY', text: 'Hello World' }] });
    expect(body.template).toEqual({ name: 'hello_world', language: { code: 'en_US' } });
  });
  it('named parameters carry parameter_name', () => {
    const t: TemplateLike = { name: 'n', language: 'en', parameter_format: 'NAMED', components: [{ type: 'BODY', text: 'Hi {{first_name}}' }] };
    expect(buildTemplateSend(ONE, t, { 'body.first_name': 'Jo' }).template.components).toEqual([{ type: 'body', parameters: [{ type: 'text', parameter_name: 'first_name', text: 'Jo' }] }]);
  });
  it('refuses a missing variable with a 400 naming the field', () => {
    try {
      buildTemplateSend(ONE, seasonal, { 'header.1': 'x', 'body.1': 'a', 'body.3': 'c', 'button.1.1': 'z' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).status).toBe(400);
      expect((e as AppError).details).toEqual([{ field: 'values.body.2', reason: 'is required' }]);
    }
  });
});

describe('templateValueProblems', () => {
  it('checks status, media links and header whitespace', () => {
    expect(templateValueProblems({ ...imageHeader, status: 'PAUSED' }, { 'header.media': 'ftp://x', 'body.1': 'a', 'body.2': 'b' })).toEqual([
      { field: 'template', reason: 'is not approved by WhatsApp (status PAUSED)' },
      { field: 'values.header.media', reason: 'must be an http(s) link or a media id' },
    ]);
    expect(templateValueProblems(seasonal, { 'header.1': 'a\nb', 'body.1': 'a', 'body.2': 'b', 'body.3': 'c', 'button.1.1': 'd' })).toEqual([
      { field: 'values.header.1', reason: 'must not contain new lines, tabs or more than 4 spaces in a row' },
    ]);
  });
});

describe('fillTemplate', () => {
  it('fills the preview and keeps missing variables visible', () => {
    const p = fillTemplate(seasonal, { 'header.1': 'Winter Sale', 'body.1': 'Sunday' });
    expect(p.header).toBe('Our Winter Sale is on!');
    expect(p.body).toBe('Shop now through Sunday and use code {{2}} to get {{3}} off of all merchandise.');
    expect(p.buttons[1]).toEqual({ type: 'URL', text: 'Shop', url: 'https://www.luckyshrub.com/shop?promo={{1}}' });
    expect(p.text).toBe(`Our Winter Sale is on!\n\n${p.body}\n\nUse the buttons below to manage your marketing subscriptions`);
  });
});

describe('windowState (Meta A.8: 24 h after the last customer message)', () => {
  const chat = { org_phone: 'A', last_customer_message_at: { A: 1_000_000 } };
  it('is open at 23h59m and closed at 24h00m', () => {
    expect(windowState(chat, 1_000_000 + SERVICE_WINDOW_MS - 60_000)).toEqual({ open: true, closes_at: 1_000_000 + SERVICE_WINDOW_MS });
    expect(windowState(chat, 1_000_000 + SERVICE_WINDOW_MS)).toEqual({ open: false, closes_at: 1_000_000 + SERVICE_WINDOW_MS });
  });
  it('is closed with no time when the customer never wrote on that phone', () => {
    expect(windowState(chat, 0, 'B')).toEqual({ open: false, closes_at: null });
    expect(windowState({ org_phone: 'A' }, 0)).toEqual({ open: false, closes_at: null });
  });
});
