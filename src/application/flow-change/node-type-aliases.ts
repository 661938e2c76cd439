// Everyday names for node types ("fraud check", "notification", "delay"), added to the catalogue's own labels for matching.
import type { Catalogue } from '../../engine/catalogue.js';
import { cleanPhrase, wordsOf } from './phrase-text.js';

/** Per node type, the words people use for it besides its catalogue label and type name. */
export const NODE_TYPE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  'human.approval': ['approval', 'approve', 'review', 'manual review', 'sign off', 'manager approval', 'human approval'],
  'commerce.fraud_score': ['fraud check', 'fraud', 'fraud screening', 'risk check', 'risk score'],
  'commerce.price': ['pricing', 'price', 'prices'],
  'commerce.notify': ['notification', 'notify', 'email', 'message', 'tell', 'alert'],
  'wait.delay': ['delay', 'pause', 'wait', 'cool off'],
  'wait.event': ['wait for event', 'event', 'wait for an event'],
  'commerce.capture_payment': ['capture', 'capturing'],
  'commerce.authorize_payment': ['authorization', 'authorisation', 'authorize', 'authorise', 'auth'],
  'commerce.reserve_stock': ['reservation', 'reserve', 'stock reservation'],
  'commerce.ship': ['shipping', 'shipment', 'ship'],
  'commerce.policy': ['policy', 'rule check'],
  'commerce.invoice': ['invoicing', 'invoice'],
  'commerce.refund': ['refund', 'refunding'],
  'commerce.payout': ['payout', 'payouts', 'pay sellers'],
  'commerce.deliver_digital': ['digital delivery', 'digital codes', 'digital'],
  'commerce.route_fulfillment': ['routing', 'route'],
  'commerce.split_by_seller': ['split', 'seller split'],
  'commerce.seller_accept': ['seller acceptance', 'seller answer'],
  'commerce.charge': ['charge', 'payment'],
  'commerce.handover': ['handover', 'hand over'],
  'commerce.pickup_ready': ['pickup', 'ready for pickup'],
  'commerce.return_window': ['return window', 'returns'],
  'commerce.purchase_order': ['purchase order', 'po'],
  'commerce.receive_stock': ['goods receipt', 'receiving', 'receive goods'],
  'ai.extract_order': ['extraction', 'extract'],
  'logic.branch': ['condition', 'branch', 'decision'],
  'logic.loop': ['loop', 'pass counter'],
  end: ['end', 'finish'],
};

/** The names a node type goes by: its catalogue label, its type name in words, its aliases. */
export function typeNames(type: string, catalogue: Catalogue): string[] {
  const def = catalogue.get(type);
  const short = type.includes('.') ? type.slice(type.indexOf('.') + 1) : type;
  return [...new Set([def ? cleanPhrase(def.label) : '', wordsOf(type), wordsOf(short), ...(NODE_TYPE_ALIASES[type] ?? []).map(cleanPhrase)].filter((s) => s.length > 0))];
}
