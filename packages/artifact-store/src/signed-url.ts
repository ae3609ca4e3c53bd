import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a served download address carries besides its key, all of it signed. */
export interface SignedFields {
  expires: string;
  filename: string;
  type: string;
}

function signature(secret: string, key: string, fields: SignedFields): string {
  return createHmac('sha256', secret)
    .update([key, fields.expires, fields.filename, fields.type].join('\n'))
    .digest('base64url');
}

/** The query string of a served download address of `key`, valid until `expiresAt`. */
export function signDownload(
  secret: string,
  key: string,
  input: { expiresAt: Date; filename: string; mimeType: string },
): URLSearchParams {
  const fields: SignedFields = {
    expires: String(Math.floor(input.expiresAt.getTime() / 1000)),
    filename: input.filename,
    type: input.mimeType,
  };
  return new URLSearchParams({ ...fields, signature: signature(secret, key, fields) });
}

/** The signed fields of a download address, or null when its signature is not ours or it has expired. */
export function verifyDownload(
  secret: string,
  key: string,
  query: Readonly<Record<string, string>>,
  now: Date,
): SignedFields | null {
  const { expires, filename, type, signature: given } = query;
  if (!expires || filename === undefined || !type || !given || !/^\d{1,12}$/.test(expires)) return null;
  const fields = { expires, filename, type };
  const expected = Buffer.from(signature(secret, key, fields));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  if (Number(expires) * 1000 < now.getTime()) return null;
  return fields;
}
