// Fixed identities for the seed: the two demo users, and UUIDs derived from a
// row's natural key so every fresh stack has the same ids (stable demo refs,
// readable tests).
import { createHash } from 'node:crypto';

export const SEED_USERS = Object.freeze([
  Object.freeze({ id: 'a1f0ed00-0000-4000-8000-000000000001', email: 'ada@example.com', name: 'Ada' }),
  Object.freeze({ id: 'a1f0ed00-0000-4000-8000-000000000002', email: 'ben@example.com', name: 'Ben' }),
]);

/** A version-5-shaped UUID from the parts of a natural key, e.g. ('recipe', userId, 'Butter Chicken'). */
export function seedUuid(...parts) {
  const hex = createHash('sha1').update(['alfred-seed', ...parts].join('\u0000')).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
