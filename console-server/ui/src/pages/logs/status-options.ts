import type { ComboboxData } from '@mantine/core';

/**
 * The status filter's choices: a class of codes or one code, as the log APIs take them
 * (status_code=4xx or status_code=429). The codes are the ones each server answers.
 */
const CLASSES = [
  { value: '2xx', label: '2xx — success' },
  { value: '3xx', label: '3xx — redirects, not modified' },
  { value: '4xx', label: '4xx — client errors' },
  { value: '5xx', label: '5xx — server errors' },
];

const code = (value: number, name: string) => ({ value: String(value), label: `${value} ${name}` });

/** What the request log holds: answers, refusals (400-429), client aborts (499), upstream failures. */
export const GATEWAY_STATUS_OPTIONS: ComboboxData = [
  { group: 'Classes', items: CLASSES.filter((c) => c.value !== '3xx') },
  {
    group: 'Codes',
    items: [
      code(200, 'OK'),
      code(400, 'Bad Request'),
      code(403, 'Forbidden'),
      code(404, 'Not Found'),
      code(413, 'Payload Too Large'),
      code(429, 'Too Many Requests'),
      code(499, 'Client Closed Request'),
      code(500, 'Internal Server Error'),
      code(502, 'Bad Gateway'),
      code(503, 'Service Unavailable'),
      code(504, 'Gateway Timeout'),
    ],
  },
];

/** Any HTTP request to either server: redirects and validation failures too. */
export const ACCESS_STATUS_OPTIONS: ComboboxData = [
  { group: 'Classes', items: CLASSES },
  {
    group: 'Codes',
    items: [
      code(200, 'OK'),
      code(201, 'Created'),
      code(204, 'No Content'),
      code(302, 'Found'),
      code(304, 'Not Modified'),
      code(400, 'Bad Request'),
      code(401, 'Unauthorized'),
      code(403, 'Forbidden'),
      code(404, 'Not Found'),
      code(409, 'Conflict'),
      code(413, 'Payload Too Large'),
      code(422, 'Unprocessable Content'),
      code(429, 'Too Many Requests'),
      code(500, 'Internal Server Error'),
      code(502, 'Bad Gateway'),
      code(503, 'Service Unavailable'),
    ],
  },
];
