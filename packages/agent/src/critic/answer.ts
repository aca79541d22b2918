/** A critic's answer, read: a score in 0..1 and a message, or why the answer could not be used. */
export type CriticAnswer =
  | { ok: true; score: number; message: string | null; rawScore: number }
  | { ok: false; reason: string };

const FENCED = /^```[a-zA-Z]*\s*\n?([\s\S]*?)\n?\s*```$/;

/**
 * Reads the critic LLM's answer: one JSON object `{"score": number, "message": string|null}` (a single code
 * fence around it is tolerated, other keys are ignored). A score outside 0..1 is clamped into it; anything else
 * (no JSON, no numeric score, a message that is not a string) is a failed answer.
 */
export function parseCriticAnswer(text: string | null | undefined): CriticAnswer {
  let body = text?.trim() ?? '';
  if (!body) return { ok: false, reason: 'The critic answered with no text.' };
  const fenced = FENCED.exec(body);
  if (fenced) body = (fenced[1] as string).trim();
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, reason: `The critic's answer is not JSON: ${preview(body)}` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: `The critic's answer is not a JSON object: ${preview(body)}` };
  }
  const { score, message } = value as Record<string, unknown>;
  if (typeof score !== 'number' || !Number.isFinite(score)) {
    return { ok: false, reason: `The critic's answer has no numeric score: ${preview(body)}` };
  }
  if (message != null && typeof message !== 'string') {
    return { ok: false, reason: `The critic's message is not a string: ${preview(body)}` };
  }
  return { ok: true, score: Math.min(1, Math.max(0, score)), message: message ?? null, rawScore: score };
}

function preview(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}...` : text);
}
