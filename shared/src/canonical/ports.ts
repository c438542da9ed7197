import type { SseEvent } from '../sse/decoder';
import type { EmbeddingsAdapter } from './embeddings';
import type {
  CanonicalRequest,
  CanonicalResponse,
  ReasoningOpaque,
  ReasoningVendor,
  StreamEvent,
  UpstreamError,
  Usage,
} from './types';

export type WireFormatName = 'openai-chat' | 'anthropic-messages' | 'openai-responses';

/** What a route tells a provider adapter: where and as whom to call, and which model. */
export interface UpstreamTarget {
  baseUrl: string;
  /** Decrypted credential. Never logged. */
  apiKey: string;
  upstreamModel: string;
  /** Provider-type specific options (api_version, region, deployment, …). */
  config: Record<string, unknown>;
  /**
   * The most output the upstream model may produce (the model's setting, else the known
   * default for the upstream id): the cap sent when the client set none and the vendor needs one.
   */
  maxOutputTokens?: number;
  /** Place prompt-cache breakpoints on a request that carries none (vendors whose caching is explicit). */
  cacheBreakpoints?: boolean;
  /** The client's request headers: each adapter forwards its vendor's protocol headers from them. */
  clientHeaders?: Headers;
}

export interface UpstreamCall {
  url: string;
  init: RequestInit & { method: string; headers: Record<string, string>; body: string };
}

/** Builds the upstream call for a client body already in the vendor's own format. */
export type NativeCallBuilder = (body: Record<string, unknown>, target: UpstreamTarget) => UpstreamCall;

/** One per provider type, in shared/src/providers/<type>/. */
export interface ProviderAdapter {
  readonly type: string;
  /** Whose reasoning this vendor can take back (ReasoningOpaque.vendor); absent: none. */
  readonly reasoningVendor?: ReasoningVendor;
  /**
   * The public wire formats this vendor speaks natively. A request in one of them is passed
   * through (model name replaced) and the answer's bytes go back untouched.
   */
  readonly nativeCalls?: Partial<Record<WireFormatName, NativeCallBuilder>>;
  /**
   * The vendor's own input-token counter, for a body in its Messages format (Anthropic's
   * `POST /v1/messages/count_tokens`). Absent: the gateway estimates (proxy/count-tokens.ts).
   */
  readonly countTokens?: NativeCallBuilder;
  /** `POST /v1/embeddings` for this vendor; absent where it has no embeddings API. */
  readonly embeddings?: EmbeddingsAdapter;
  buildRequest(request: CanonicalRequest, target: UpstreamTarget): UpstreamCall | Promise<UpstreamCall>;
  parseResponse(body: unknown): CanonicalResponse;
  /** Vendor stream bytes → canonical events; must tolerate chunks split anywhere. */
  createStreamDecoder(): TransformStream<Uint8Array, StreamEvent>;
  mapError(status: number, bodyText: string): UpstreamError;
}

/** How a client body in some format goes to an upstream that speaks the same format. */
export interface PassthroughPlan {
  body: Record<string, unknown>;
  /**
   * Events of the upstream's stream the client must not see (only events that carry a usage
   * object are offered); applied by the format's native usage reader as the bytes pass.
   */
  dropEvent?(event: SseEvent): boolean;
  /**
   * The client's name for the model, to put where the answer names the upstream's (the body,
   * every stream event). With neither this nor dropEvent, a stream's bytes go to the client
   * without passing through JavaScript.
   */
  clientModel?: string;
}

export interface PassthroughOptions {
  /** The name the client sent, for the answer to carry in place of the upstream's own id. */
  clientModel?: string;
}

/** Opens one of the gateway's reasoning seals (null: not one); throws the client's 400 when altered. */
export type OpenSeal = (value: string, field: string) => Promise<ReasoningOpaque | null>;

/** One per public format, in shared/src/wire/<format>/. */
export interface WireFormat {
  readonly name: WireFormatName;
  /** Validates a client body (throws AppError 400 in this format's terms) and parses it. */
  parseRequest(body: unknown): CanonicalRequest;
  /** `request` is the client's, parsed: how it declared its tools decides how calls are rendered. */
  renderResponse(response: CanonicalResponse, clientModel: string, request?: CanonicalRequest): unknown;
  /** Canonical events → this format's SSE bytes, ending the way its clients expect. */
  createStreamEncoder(
    clientModel: string,
    request?: CanonicalRequest,
  ): TransformStream<StreamEvent, Uint8Array>;
  /**
   * The event this format's clients read as an error mid-stream (the gateway's own, e.g. an
   * upstream that fell silent): the last bytes of a stream that cannot finish.
   */
  streamErrorEvent(error: { type: string; message: string }): Uint8Array;
  /** Usage from a native (passthrough) response body of this format. */
  usageFromResponse(body: unknown): Usage | null;
  /**
   * The body to send an upstream of this same format (the provider swaps the model in):
   * the client's body plus whatever the gateway needs to read usage from the answer, and how
   * the answer is edited on its way back (the client's model name).
   */
  preparePassthrough(body: Record<string, unknown>, options?: PassthroughOptions): PassthroughPlan;
  /**
   * The vendor family whose reasoning this format's clients can carry as it is (Messages:
   * Anthropic's thinking blocks; Responses: OpenAI's reasoning items); another family's is sealed.
   */
  readonly reasoningVendor?: ReasoningVendor;
  /**
   * A body about to be passed through to a vendor of `vendor`'s family: reasoning the gateway
   * sealed for this client goes back as the vendor's own form, or is left out when another
   * vendor made it.
   */
  restoreReasoning(
    body: Record<string, unknown>,
    vendor: ReasoningVendor | undefined,
    open: OpenSeal,
  ): Promise<Record<string, unknown>>;
}
