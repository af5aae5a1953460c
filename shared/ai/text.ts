import { stemmer } from 'stemmer';

/**
 * Text processing of the local answering adapter (issue 18): what a customer's question and a FAQ
 * pair are reduced to before they are compared.
 *   1. accent folding and lower case (NFKD, combining marks dropped: 'Envío' -> 'envio');
 *   2. words: runs of letters and digits (apostrophes dropped: "don't" -> 'dont');
 *   3. stop words dropped (English and a few Spanish/Portuguese ones, customers write both);
 *   4. synonyms: each word (and two-word phrases) mapped to its group's canonical word
 *      (SYNONYM_GROUPS), before and after stemming, so 'parcel', 'package' and 'packages' meet;
 *   5. stemming: the Porter stemmer (npm `stemmer`).
 * Pure functions; no I/O.
 */

/** Words that carry no meaning for matching. */
const STOP_WORDS = new Set(
  (
    'a an the and or but if of to in on at by for with from as is are was were be been being am do does did doing have has had having ' +
    'i me my mine we us our you your yours he she it its they them their this that these those there here ' +
    'what which who whom whose when where why how can could would should will shall may might must ' +
    'please hi hello hey thanks thank thx ok okay just also any some about into than then so too very really ' +
    'want wanted need needed like would im ive id lot lots many much bit take takes taking yes no something anything thing things now dont doesnt isnt arent cant wont get got know tell let lets ' +
    'el la los las un una unos unas de del y o en por para con que es son mi mis tu su hola gracias ' +
    'o os as um uma do da dos das e em com por para que ola obrigado'
  ).split(/\s+/),
);

/**
 * Synonym groups of a shop's customer questions: the first word of a group is its canonical word.
 * Multi-word entries are matched as phrases. Kept short and generic; an org's own wording belongs
 * in its pairs.
 */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['price', 'cost', 'costs', 'fee', 'fees', 'charge', 'charges', 'how much', 'expensive', 'cheap', 'precio', 'preco', 'rate', 'cuesta', 'custa', 'cuanto', 'quanto', 'cuanto cuesta', 'quanto custa'],
  ['ship', 'shipping', 'shipped', 'delivery', 'deliver', 'delivered', 'dispatch', 'dispatched', 'post', 'postage', 'courier', 'envio', 'entrega', 'arrive', 'arrives', 'arrival'],
  ['parcel', 'package', 'packet', 'order', 'orders', 'purchase', 'purchases', 'pedido', 'encomenda'],
  ['refund', 'money back', 'reimburse', 'reimbursement', 'reembolso', 'repay'],
  ['return', 'send back', 'give back', 'devolucion', 'devolver', 'devolucao'],
  ['exchange', 'swap', 'replace', 'replacement', 'cambio', 'troca'],
  ['cancel', 'cancellation', 'cancelled', 'canceled', 'cancelar'],
  ['track', 'tracking', 'trace', 'whereabouts', 'status', 'rastreo', 'rastreio', 'tracking number'],
  ['open', 'opening', 'hours', 'schedule', 'timetable', 'horario'],
  ['store', 'shop', 'branch', 'location', 'tienda', 'loja', 'located', 'find you', 'boutique'],
  ['pay', 'payment', 'payments', 'card', 'cards', 'credit', 'debit', 'visa', 'mastercard', 'paypal', 'pago', 'pagamento'],
  ['discount', 'coupon', 'promo', 'promotion', 'voucher', 'code', 'sale', 'descuento', 'desconto', 'offer'],
  ['size', 'sizes', 'sizing', 'fit', 'fits', 'measurement', 'measurements', 'talla', 'tamanho', 'small', 'smaller', 'large', 'larger', 'big', 'bigger', 'tight', 'loose', 'run small', 'run large'],
  ['method', 'methods', 'option', 'options', 'ways'],
  ['giftcard', 'gift card', 'gift cards', 'gift voucher', 'gift vouchers', 'gift certificate', 'e-gift card'],
  ['broken', 'damaged', 'damage', 'defective', 'faulty', 'cracked', 'arrived broken', 'roto', 'danificado'],
  ['international', 'abroad', 'overseas', 'worldwide', 'other countries', 'outside'],
  ['gift', 'present', 'regalo', 'presente'],
  ['wrap', 'wrapping', 'giftwrap', 'envolver'],
  ['warranty', 'guarantee', 'garantia'],
  ['stock', 'available', 'availability', 'sold out', 'in stock', 'disponible', 'disponivel', 'restock', 'back in'],
  ['account', 'login', 'log in', 'sign in', 'password', 'cuenta', 'conta'],
  ['contact', 'phone', 'call', 'email', 'reach', 'speak', 'talk'],
  ['human', 'agent', 'person', 'someone', 'representative', 'staff'],
  ['fast', 'quick', 'quickly', 'express', 'urgent', 'rapido', 'expedited', 'next day'],
  ['long', 'time', 'days', 'how long', 'how many days', 'soon', 'cuanto tarda', 'quanto tempo'],
  ['free', 'gratis', 'no charge', 'without paying'],
  ['wash', 'washing', 'clean', 'cleaning', 'care', 'laundry', 'lavar'],
  ['material', 'fabric', 'made of', 'cotton', 'wool'],
  ['newsletter', 'subscribe', 'subscription', 'mailing list', 'unsubscribe'],
  ['invoice', 'receipt', 'bill', 'factura', 'nota fiscal'],
  ['loyalty', 'points', 'rewards', 'member', 'membership'],
  ['wholesale', 'bulk', 'business', 'reseller', 'b2b'],
  ['pickup', 'pick up', 'collect', 'click and collect', 'recoger', 'retirar'],
  ['change', 'modify', 'edit', 'update', 'alter'],
  ['wrong', 'incorrect', 'mistake', 'not what i ordered', 'different item'],
];

/** Fold accents and case: 'Envío' -> 'envio'. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** Folded words (letters and digits), apostrophes removed. */
export function words(text: string): string[] {
  return fold(text).replace(/['’`]/g, '').match(/[\p{L}\p{N}]+/gu) ?? [];
}

const stem = (w: string): string => (/^\d+$/.test(w) ? w : stemmer(w));

interface SynonymTable {
  /** single folded word or its stem -> canonical stem */
  single: Map<string, string>;
  /** two/three-word phrase (folded words joined by ' ') -> canonical stem */
  phrases: Map<string, string>;
  maxPhrase: number;
}

function buildSynonyms(groups: readonly (readonly string[])[]): SynonymTable {
  const single = new Map<string, string>();
  const phrases = new Map<string, string>();
  let maxPhrase = 1;
  for (const group of groups) {
    const canonical = stem(words(group[0]!).join(' '));
    for (const entry of group) {
      const ws = words(entry);
      if (ws.length === 1) {
        if (!single.has(ws[0]!)) single.set(ws[0]!, canonical);
        const s = stem(ws[0]!);
        if (!single.has(s)) single.set(s, canonical);
      } else if (ws.length > 1) {
        phrases.set(ws.join(' '), canonical);
        maxPhrase = Math.max(maxPhrase, ws.length);
      }
    }
  }
  return { single, phrases, maxPhrase };
}

const DEFAULT_SYNONYMS = buildSynonyms(SYNONYM_GROUPS);

/**
 * The terms of a text: folded, phrase and word synonyms applied, stop words dropped, stemmed.
 * The same function is used for pairs and questions, so both sides meet on the same terms.
 * @example terms('How much is shipping to Spain?') -> ['price', 'ship', 'spain']
 */
export function terms(text: string, table: SynonymTable = DEFAULT_SYNONYMS): string[] {
  const ws = words(text);
  const out: string[] = [];
  for (let i = 0; i < ws.length; ) {
    let matched = false;
    for (let n = Math.min(table.maxPhrase, ws.length - i); n >= 2; n--) {
      const canonical = table.phrases.get(ws.slice(i, i + n).join(' '));
      if (canonical) {
        out.push(canonical);
        i += n;
        matched = true;
        break;
      }
    }
    if (matched) continue;
    const w = ws[i++]!;
    const direct = table.single.get(w);
    if (direct) {
      out.push(direct);
      continue;
    }
    if (STOP_WORDS.has(w) || w.length < 2) continue;
    const s = stem(w);
    out.push(table.single.get(s) ?? s);
  }
  return out;
}
