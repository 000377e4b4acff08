// Types of the Act loop (web/src/loop/). Every type the loop shares with
// the rest of the package (Core, Act, ActDecision, StepType, …) is the one
// declared in index.d.ts, so a loaded core and an act are what runStep and
// runTurn take.
import type {
  Act,
  ActDecision,
  AlfredErrorShape,
  Core,
  DomainConfig,
  JsonValue,
  Registry,
  RegistryState,
  Result,
  StepType,
  ToolName,
} from './index.js';
import type { ChatModel } from './llm.js';

export type { ActDecision, StepType };
/** @deprecated use `ToolName` from 'alfred-act'. */
export type LoopToolName = ToolName;

/** One planned step. */
export interface PlannedStep {
  description: string;
  type: StepType;
  subdomain?: string;
}

type ValueOrError<T> = Result<T>;

/** What the loop uses of the loaded core: `loadCore()` gives it. */
export type LoopCore = Pick<Core, 'actDecisionSchema' | 'promptExamples' | 'buildActPrompt' | 'parseDecision' | 'withoutUuids' | 'parseRef'> &
  /** Needed for `toolCalling: 'native'` (a loaded `Core` has both). */
  Partial<Pick<Core, 'toolDefinitions' | 'toolResult'>>;

/** One executed tool call, as kept in step results and shown to the next prompts. */
export interface LoopQuery {
  tool: ToolName;
  table: string | null;
  params: JsonValue;
  data: JsonValue;
  error: AlfredErrorShape | null;
  count: number | null;
  /** The executor's query record (filters as written and as run, limit, order, rows). */
  query: { [key: string]: JsonValue } | null;
}

/**
 * What the loop uses of the executor: `core.createAct(…)` or the package's
 * `createAct(…)` gives it. `execute` rejects only when `signal` aborts; the
 * loop then ends the step `aborted`.
 */
export type LoopAct = Pick<Act, 'registry' | 'execute'> & { readonly domain: DomainConfig };

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
  queries: LoopQuery[];
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
  | { type: 'tool_call'; step: number; tool: ToolName; params: JsonValue }
  | { type: 'query'; step: number; query: NonNullable<LoopQuery['query']> }
  | { type: 'result'; step: number; tool: ToolName; table: string | null; data: JsonValue; error: AlfredErrorShape | null; count: number | null }
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
  /**
   * `'json'` (default): tool calls are ActDecisions in the model's JSON answer.
   * `'native'`: the step's tools go to the model as OpenAI function tools (the
   * core's strict schemas) and its `tool_calls` are run and answered with tool
   * messages; the step still ends with a decision. Same validation, refs,
   * error feedback, retries and limits.
   */
  toolCalling?: 'json' | 'native';
  signal?: AbortSignal;
  onEvent?: (event: LoopEvent) => void;
}

/** Runs one step; never rejects for model or executor failures (`status: 'error'`). */
export function runStep(options: RunStepOptions): Promise<StepResult>;

/** Which tools each step type may call. */
export declare const STEP_TOOLS: { readonly [type in StepType]: readonly ToolName[] };

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
  /** Names the tables; its prompt examples (`core.promptExamples`) give the planner's wording. */
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
  /** The assistant's role and what a ref looks like come from the domain (`assistant_role`). */
  domain?: DomainConfig;
  signal?: AbortSignal;
}): Promise<ValueOrError<string>>;

/** The strict JSON Schema planTurn asks for. */
export declare const planSchema: object;

export function createTurnState(): TurnState;
/** Checks a stored state; damaged or foreign values are errors (`invalid_state`, `unsupported_state_version`). */
export function readTurnState(value: unknown): ValueOrError<TurnState>;
