/**
 * The built-in detectors of security.redact. Each is a global regex, with a check for what a
 * regex cannot say (a card number's Luhn digit, a phone number's digit count, an IPv4 octet's
 * range). `api_key` covers the key shapes of the vendors Sluice routes to, and its own keys.
 */
export interface Detector {
  regex: RegExp;
  accept?(match: string): boolean;
}

export const DETECTOR_NAMES = ['email', 'phone', 'card', 'ip', 'api_key'] as const;
export type DetectorName = (typeof DETECTOR_NAMES)[number];

const digitsOf = (text: string) => text.replace(/\D/g, '');

/** The Luhn check every payment card number passes. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** Vendor key shapes: OpenAI, Anthropic, Google, AWS access key ids, Azure/HF/Groq-style, Sluice. */
const API_KEY_SHAPES = [
  'sk-ant-[A-Za-z0-9_-]{20,}',
  'sk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}',
  'AIza[0-9A-Za-z_-]{35,}',
  '(?:AKIA|ASIA)[0-9A-Z]{16}',
  'gsk_[A-Za-z0-9]{20,}',
  'hf_[A-Za-z0-9]{30,}',
  'xai-[A-Za-z0-9]{20,}',
  'sluice-[A-Za-z0-9_-]{20,}',
];

export function detector(name: DetectorName): Detector {
  switch (name) {
    case 'email':
      return { regex: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g };
    case 'phone':
      return {
        regex: /(?<![\w+])\+?\(?\d{1,4}\)?(?:[ .-]?\(?\d{2,4}\)?){2,4}(?![\w])/g,
        accept: (match) => {
          const n = digitsOf(match).length;
          return n >= 9 && n <= 15;
        },
      };
    case 'card':
      return {
        regex: /(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g,
        accept: (match) => luhnValid(digitsOf(match)),
      };
    case 'ip':
      return {
        regex:
          /(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])|(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{1,4}(?![\w:])/g,
        // IPv6: compressed (one `::`) or all eight groups, so a time like 12:30:45 is left alone.
        accept: (match) =>
          match.includes('.')
            ? match.split('.').every((octet) => Number(octet) <= 255)
            : match.split('::').length === 2 || match.split(':').length === 8,
      };
    case 'api_key':
      return { regex: new RegExp(`(?<![A-Za-z0-9_-])(?:${API_KEY_SHAPES.join('|')})`, 'g') };
  }
}
