-- Custom SQL migration file, put your code below! --
-- The price table's seed: vendor LIST prices in USD per 1M tokens (input, output, cached input)
-- as published when this migration was written. Prices change: admins should check them and
-- edit them in the console (PUT /api/admin/model-prices/{model}). Entries are keyed by the
-- upstream model name routes send; dated snapshots (gpt-4o-2024-08-06), `-latest` aliases and
-- Bedrock ids (anthropic.claude-...-v1:0) find their base entry (shared/src/pricing/match.ts).
-- Cached input: OpenAI cached-input, Anthropic cache read, Gemini context caching; NULL bills
-- cached tokens at the input price. Gemini prices are for prompts up to 200k tokens.
-- Meta Llama has no first-party API; it is seeded as served by Amazon Bedrock (on-demand,
-- us-east-1; ids meta.llama3-...) and by Groq (llama-3.3-70b-versatile, ...), whose names differ.
-- ON CONFLICT DO NOTHING keeps any price an admin already set.
INSERT INTO "model_prices" ("model", "vendor", "input_price_per_mtok", "output_price_per_mtok", "cached_input_price_per_mtok") VALUES
  ('gpt-5', 'openai', 1.25, 10, 0.125),
  ('gpt-5-mini', 'openai', 0.25, 2, 0.025),
  ('gpt-5-nano', 'openai', 0.05, 0.40, 0.005),
  ('gpt-4.1', 'openai', 2, 8, 0.50),
  ('gpt-4.1-mini', 'openai', 0.40, 1.60, 0.10),
  ('gpt-4.1-nano', 'openai', 0.10, 0.40, 0.025),
  ('gpt-4o', 'openai', 2.50, 10, 1.25),
  ('gpt-4o-2024-05-13', 'openai', 5, 15, NULL),
  ('gpt-4o-mini', 'openai', 0.15, 0.60, 0.075),
  ('o1', 'openai', 15, 60, 7.50),
  ('o3', 'openai', 2, 8, 0.50),
  ('o3-mini', 'openai', 1.10, 4.40, 0.55),
  ('o3-pro', 'openai', 20, 80, NULL),
  ('o4-mini', 'openai', 1.10, 4.40, 0.275),
  ('gpt-4-turbo', 'openai', 10, 30, NULL),
  ('gpt-3.5-turbo', 'openai', 0.50, 1.50, NULL),
  ('claude-opus-4-5', 'anthropic', 5, 25, 0.50),
  ('claude-opus-4-1', 'anthropic', 15, 75, 1.50),
  ('claude-opus-4', 'anthropic', 15, 75, 1.50),
  ('claude-sonnet-4-5', 'anthropic', 3, 15, 0.30),
  ('claude-sonnet-4', 'anthropic', 3, 15, 0.30),
  ('claude-3-7-sonnet', 'anthropic', 3, 15, 0.30),
  ('claude-3-5-sonnet', 'anthropic', 3, 15, 0.30),
  ('claude-haiku-4-5', 'anthropic', 1, 5, 0.10),
  ('claude-3-5-haiku', 'anthropic', 0.80, 4, 0.08),
  ('claude-3-opus', 'anthropic', 15, 75, 1.50),
  ('claude-3-haiku', 'anthropic', 0.25, 1.25, 0.03),
  ('gemini-2.5-pro', 'google', 1.25, 10, 0.125),
  ('gemini-2.5-flash', 'google', 0.30, 2.50, 0.03),
  ('gemini-2.5-flash-lite', 'google', 0.10, 0.40, 0.01),
  ('gemini-2.0-flash', 'google', 0.10, 0.40, 0.025),
  ('gemini-2.0-flash-lite', 'google', 0.075, 0.30, NULL),
  ('mistral-large', 'mistral', 2, 6, NULL),
  ('mistral-medium', 'mistral', 0.40, 2, NULL),
  ('mistral-small', 'mistral', 0.10, 0.30, NULL),
  ('magistral-medium', 'mistral', 2, 5, NULL),
  ('magistral-small', 'mistral', 0.50, 1.50, NULL),
  ('codestral', 'mistral', 0.30, 0.90, NULL),
  ('pixtral-large', 'mistral', 2, 6, NULL),
  ('ministral-8b', 'mistral', 0.10, 0.10, NULL),
  ('ministral-3b', 'mistral', 0.04, 0.04, NULL),
  ('open-mistral-nemo', 'mistral', 0.15, 0.15, NULL),
  ('llama3-3-70b-instruct', 'meta', 0.72, 0.72, NULL),
  ('llama3-1-405b-instruct', 'meta', 2.40, 2.40, NULL),
  ('llama3-1-70b-instruct', 'meta', 0.72, 0.72, NULL),
  ('llama3-1-8b-instruct', 'meta', 0.22, 0.22, NULL),
  ('llama3-2-90b-instruct', 'meta', 0.72, 0.72, NULL),
  ('llama3-2-11b-instruct', 'meta', 0.16, 0.16, NULL),
  ('llama3-2-3b-instruct', 'meta', 0.15, 0.15, NULL),
  ('llama3-2-1b-instruct', 'meta', 0.10, 0.10, NULL),
  ('llama4-maverick-17b-instruct', 'meta', 0.24, 0.97, NULL),
  ('llama4-scout-17b-instruct', 'meta', 0.17, 0.66, NULL),
  ('llama-3.3-70b-versatile', 'meta', 0.59, 0.79, NULL),
  ('llama-3.1-8b-instant', 'meta', 0.05, 0.08, NULL),
  ('llama-4-maverick-17b-128e-instruct', 'meta', 0.20, 0.60, NULL),
  ('llama-4-scout-17b-16e-instruct', 'meta', 0.11, 0.34, NULL)
ON CONFLICT ("model") DO NOTHING;
