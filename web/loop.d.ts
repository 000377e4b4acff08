// Types of the Act loop (web/src/loop.js).
import type { AlfredErrorShape, DomainConfig, JsonValue, Registry, RegistryState } from './index.js';
import type { ChatModel } from './llm.js';

export type StepType = 'read' | 'write' | 'analyze' | 'generate';
export type LoopToolName = 'db_read' | 'db_create' | 'db_update' | 'db_delete';

/** One planned step. */
export interface PlannedStep {
  description: string;
  type: StepType;
  subdomain?: string;
}

/** The model's decision, as the core's parseDecision returns it. */
export type ActDecision =
  | { action: 'tool_call'; tool: LoopToolName; params: { [key: string]: JsonValue } }
  | { action: 'step_complete'; summary: string; data: JsonValue; note_for_next_step: string | null }
  | { action: 'ask_user'; question: string }
  | { action: 'blocked'; reason_code: 'INSUFFICIENT_INFO' | 'PLAN_INVALID' | 'TOOL_FAILURE'; details: string; suggested_next: 'ask_user' | 'replan' | 'fail' | null }
  | { action: 'fail'; details: string; [key: string]: JsonValue };

type ValueOrError<T> = { data: T; error: null } | { data: null; error: AlfredErrorShape };

/** What the loop needs of the loaded core (`loadCore()`). */
export interface LoopCore {
  readonly kitchen: DomainConfig;
  readonly actDecisionSchema: object;
  buildActPrompt(input: object, options?: { registry?: Registry; domain?: DomainConfig }): ValueOrError<{ system: string; user: string }>;
  parseDecision(text: string, options?: object): ValueOrError<ActDecision>;
  /** The core's UUID scrubber: every text the loop sends to a model goes through it. */
  withoutUuids(text: string, options?: { registry?: Registry }): string;
}

/** One executed tool call, as kept in step results and shown to the next prompts. */
export interface QueryRecord {
  tool: LoopToolName;
  table: string | null;
  params: JsonValue;
  data: JsonValue;
  error: AlfredErrorShape | null;
  count: number | null;
  /** The executor's query record (filters as written and as run, limit, order, rows). */
  query: { [key: string]: JsonValue } | null;
}

/** What the loop needs of the executor (`createAct(…)`). */
export interface LoopAct {
  readonly registry: Registry;
  readonly domain?: DomainConfig;
  /** Rejects only when `signal` aborts; the loop then ends the step `aborted`. */
  execute(tool: LoopToolName, params: JsonValue, options?: { signal?: AbortSignal }): Promise<{ data: JsonValue; error: AlfredErrorShape | null; query: QueryRecord['query']; count: number | null }>;
}

export type StepStatus = 'complete' | 'ask_user' | 'blocked' | 'failed' | 'limit_reached' | 'error' | 'aborted';

/** A finished step: plain JSON, kept in the turn state. */
export interface StepResult {
  index: number;
  description: string;
  type: StepType;
  status: StepStatus;
  summary: string;
  data: JsonValue;
  note: string | null;
  question: string | null;
  blocked: { reason_code: string; details: string; suggested_next: string | null } | null;
  failure: { [key: string]: JsonValue } | null;
  /** The last decision the step acted on. */
  decision: ActDecision | null;
  /** gen_ refs a generate step registered. */
  generated: { ref: string; table: string | null; content: { [key: string]: JsonValue } }[];
  /** Every executed call, including those the executor or database refused. */
  queries: QueryRecord[];
  /** Answers that were sent back for correction. */
  rejected: { reason: 'malformed_decision' | 'tool_not_allowed' | 'repeated_call' | 'tool_error' | 'invalid_artifacts'; error: AlfredErrorShape }[];
  modelCalls: number;
  usage: { prompt_tokens: number; completion_tokens: number };
  error: AlfredErrorShape | null;
}

export interface StepContext {
  index?: number;
  count?: number;
  userMessage?: string;
  conversation?: ConversationMessage[];
  previousSteps?: StepResult[];
  recentTurns?: TurnState['recentTurns'];
  /** The descriptions of all planned steps. */
  plan?: string[];
  today?: string;
  domain?: DomainConfig;
  /** Passed to the prompt as `user_profile`, `subdomain_guidance`, `templates`, `limits`. */
  userProfile?: string | { [key: string]: JsonValue };
  subdomainGuidance?: string;
  templates?: { [name: string]: string };
  limits?: { [name: string]: number };
}

export type LoopEvent =
  | { type: 'turn_started'; turn: number; userMessage: string }
  | { type: 'plan'; steps: PlannedStep[] }
  | { type: 'step_started'; step: number; description: string; stepType: StepType }
  | { type: 'prompt'; step: number; system: string; user: string }
  | { type: 'decision'; step: number; decision: ActDecision }
  | { type: 'tool_call'; step: number; tool: LoopToolName; params: JsonValue }
  | { type: 'query'; step: number; query: NonNullable<QueryRecord['query']> }
  | { type: 'result'; step: number; tool: LoopToolName; table: string | null; data: JsonValue; error: AlfredErrorShape | null; count: number | null }
  | { type: 'retry'; step: number; reason: StepResult['rejected'][number]['reason']; error: AlfredErrorShape; retriesLeft: number }
  | { type: 'step_done'; step: number; result: StepResult }
  | { type: 'reply'; reply: string | null; error: AlfredErrorShape | null }
  | { type: 'turn_done'; result: TurnResult };

export interface RunStepOptions {
  core: LoopCore;
  act: LoopAct;
  model: ChatModel;
  step: PlannedStep;
  context?: StepContext;
  /** Successful tool calls before the step is ended with `limit_reached`. Default 6. */
  maxToolCalls?: number;
  /** Corrections (malformed decision, refused call) per step before it ends `blocked`. Default 3. */
  maxRetries?: number;
  signal?: AbortSignal;
  onEvent?: (event: LoopEvent) => void;
}

/** Runs one step; never rejects for model or executor failures (`status: 'error'`). */
export function runStep(options: RunStepOptions): Promise<StepResult>;

/** Which tools each step type may call. */
export declare const STEP_TOOLS: { readonly [type in StepType]: readonly LoopToolName[] };

export interface ConversationMessage {
  role: 'user' | 'assistant';
  content: string;
  turn: number;
}

/** Everything carried between turns, as one JSON value. */
export interface TurnState {
  format: 'alfred-act.turn-state';
  version: 1;
  turn: number;
  /** `registry.toJSON()`; pass it to `createAct({ state })` for the next turn. */
  registry: RegistryState | null;
  conversation: ConversationMessage[];
  recentTurns: { turn: number; userMessage: string; steps: StepResult[] }[];
}

export type TurnStatus = 'done' | 'ask_user' | 'blocked' | 'failed' | 'error' | 'aborted';

export interface TurnResult {
  status: TurnStatus;
  steps: StepResult[];
  reply: string | null;
  question: string | null;
  /** The state for the next turn; the given state when it could not be read. */
  state: TurnState | null;
  error: AlfredErrorShape | null;
  usage: { prompt_tokens: number; completion_tokens: number };
}

export interface RunTurnOptions extends Omit<RunStepOptions, 'step' | 'context'> {
  turn: { userMessage: string; steps?: PlannedStep[]; plan?: PlannedStep[] };
  /** The last turn's `result.state` (object or JSON text); none for a new conversation. */
  state?: TurnState | string | null;
  today?: string;
  domain?: DomainConfig;
  planTurn?: typeof planTurn;
  /** `null` skips the reply. */
  replyTurn?: typeof replyTurn | null;
}

/** Runs a user's turn; never rejects for model, executor or plan failures. */
export function runTurn(options: RunTurnOptions): Promise<TurnResult>;

/** runTurn's events as an async iterator; the last one is `turn_done`. Leaving the loop cancels the turn. */
export function runTurnEvents(options: RunTurnOptions): AsyncGenerator<LoopEvent, void, undefined>;

/** `core` scrubs UUIDs from the prompt (`registry`: known rows as refs); without it the result is an `invalid_option` error. */
export function planTurn(options: {
  core: LoopCore;
  registry?: Registry;
  model: ChatModel;
  userMessage: string;
  conversation?: ConversationMessage[];
  domain: DomainConfig;
  signal?: AbortSignal;
  maxSteps?: number;
}): Promise<ValueOrError<PlannedStep[]>>;

/** `core` scrubs UUIDs from the prompt (`registry`: known rows as refs); without it the result is an `invalid_option` error. */
export function replyTurn(options: {
  core: LoopCore;
  registry?: Registry;
  model: ChatModel;
  userMessage: string;
  steps: StepResult[];
  conversation?: ConversationMessage[];
  signal?: AbortSignal;
}): Promise<ValueOrError<string>>;

/** The strict JSON Schema planTurn asks for. */
export declare const planSchema: object;

export function createTurnState(): TurnState;
/** Checks a stored state; damaged or foreign values are errors (`invalid_state`, `unsupported_state_version`). */
export function readTurnState(value: unknown): ValueOrError<TurnState>;
