// Block-message templates: weighted A/B choice, `{{session_id}}` substitution,
// and a built-in default so a missing template never leaves the agent without
// instructions.

export const DEFAULT_TEMPLATE_ID = 'default';

export const DEFAULT_BLOCK_TEMPLATE = `Review required before you finish (roz).

Spawn the independent reviewer now with the Agent tool:
- subagent_type: "roz:roz"
- description: "Independent review"
- prompt: start with the line SESSION_ID={{session_id}}, then summarise what you did and list the files you changed.

The reviewer reads the real diff and records its decision; you cannot record it yourself. Run it in the foreground (run_in_background: false) and stop again after it has finished. The review covers the files as the reviewer sees them: a change after it needs another review.`;

/** Pick a template id: a pinned id, or a weighted random one (`rng` in [0, 1)). */
export function chooseTemplate(active: string, weights: Record<string, number>, rng: () => number): string {
  if (active !== 'random') return active;
  const entries = Object.entries(weights).filter(([, w]) => w > 0);
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  if (total <= 0) return DEFAULT_TEMPLATE_ID;
  let ticket = rng() * total;
  for (const [id, w] of entries) {
    ticket -= w;
    if (ticket < 0) return id;
  }
  return entries.at(-1)![0];
}

export function renderTemplate(text: string, vars: Record<string, string>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => vars[name] ?? whole);
}

export interface RenderedBlock {
  template_id: string;
  text: string;
  /** Set when the chosen template could not be loaded and the default was used. */
  warning?: string;
}

/**
 * Render the block message for a session. `load` returns the template text or
 * null when it does not exist; the default then stands in and says so.
 */
export function renderBlockMessage(templateId: string, sessionId: string, load: (id: string) => string | null): RenderedBlock {
  const vars = { session_id: sessionId };
  const text = templateId === DEFAULT_TEMPLATE_ID ? DEFAULT_BLOCK_TEMPLATE : load(templateId);
  if (text === null || text.trim() === '') {
    return {
      template_id: DEFAULT_TEMPLATE_ID,
      text: renderTemplate(DEFAULT_BLOCK_TEMPLATE, vars),
      warning: `roz: block template "${templateId}" not found; used the built-in default`,
    };
  }
  let rendered = renderTemplate(text, vars);
  // A template that forgets the session id would strand the reviewer.
  if (!rendered.includes(sessionId)) rendered += `\n\nSESSION_ID=${sessionId}`;
  return { template_id: templateId, text: rendered };
}
