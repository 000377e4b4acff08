// Recorded sessions: the model's answers of a conversation, kept so that the
// same conversation can run again without a model. Replaying feeds the
// recorded answers to the real loop, so prompts, validation, PostgREST
// queries and rows are live; only the model is replaced. No DOM here.

export const SESSION_FORMAT = 'alfred-act.demo-session';

// Which call of the loop asked: the plan, an Act decision, or the reply.
const kindOf = ({ schema, schemaName }) => (schema ? schemaName : 'reply');

// Answers are kept as JSON values when they parse, for a readable file.
function storedAnswer(content) {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

const answerText = (answer) => (typeof answer === 'string' ? answer : JSON.stringify(answer));

/**
 * Keeps the answers of live model calls, turn by turn, in the session format
 * `replayModel` reads.
 *
 * @example
 * const recorder = createRecorder()
 * await runTurn({ core, act, model: recorder.turnModel(model, message), turn: { userMessage: message } })
 * download(JSON.stringify(recorder.session('ada@example.com'), null, 2))
 */
export function createRecorder() {
  const turns = [];
  const models = new Set();
  return {
    get turnCount() {
      return turns.length;
    },
    /** `model` for one turn, its answers kept under `userMessage`. */
    turnModel(model, userMessage) {
      const turn = { userMessage, answers: [] };
      turns.push(turn);
      models.add(model.model);
      return {
        model: model.model,
        async complete(options) {
          const completion = await model.complete(options);
          turn.answers.push({ kind: kindOf(options), answer: storedAnswer(completion.content) });
          return completion;
        },
      };
    },
    session(user) {
      return { format: SESSION_FORMAT, version: 1, recordedWith: [...models].join(', '), user, turns: structuredClone(turns) };
    },
  };
}

/** Checks a session file; `{ data, error }`. */
export function readSession(value) {
  const fail = (message) => ({ data: null, error: { code: 'invalid_session', message } });
  if (value?.format !== SESSION_FORMAT || value.version !== 1) return fail(`not a ${SESSION_FORMAT} version 1 file`);
  if (!Array.isArray(value.turns) || value.turns.length === 0) return fail('the session has no turns');
  for (const [index, turn] of value.turns.entries()) {
    if (typeof turn?.userMessage !== 'string' || !Array.isArray(turn.answers)) return fail(`turn ${index + 1} needs userMessage and answers`);
  }
  return { data: value, error: null };
}

/**
 * A ChatModel that answers one turn from its recorded answers, in order. An
 * answer of another kind than the loop asks for (the run went another way
 * than the recording) is an error, not a guess.
 */
export function replayModel(turn) {
  let next = 0;
  return {
    model: 'recorded session',
    async complete(options) {
      const kind = kindOf(options);
      const entry = turn.answers[next];
      if (!entry || entry.kind !== kind) {
        const error = new Error(
          `the replay went another way than the recording: the loop asked for ${kind}, the recording has ${entry ? entry.kind : 'no more answers'} (answer ${next + 1})`,
        );
        error.code = 'replay_diverged';
        throw error;
      }
      next += 1;
      return { content: answerText(entry.answer), usage: null, finishReason: 'stop' };
    },
  };
}
