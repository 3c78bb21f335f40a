// Tool inputs and responses can be megabytes (a Write of a generated file);
// traces keep a bounded copy plus a hash and the original size, so a trace
// line stays small and the original can still be verified.

import { sha256 } from './sha256.js';

export interface Truncated {
  value: unknown;
  truncated: boolean;
  original_size?: number;
  original_hash?: string;
}

/** Keep `value` as-is when its JSON fits in `limit` bytes, else a preview. */
export function truncateValue(value: unknown, limit: number): Truncated {
  if (value === undefined) return { value: undefined, truncated: false };
  const json = JSON.stringify(value) ?? 'null';
  if (json.length <= limit) return { value, truncated: false };
  return {
    value: `${json.slice(0, limit)}…`,
    truncated: true,
    original_size: Buffer.byteLength(json),
    original_hash: `sha256:${sha256(json)}`,
  };
}

/** Shorten a string for a one-line display. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
