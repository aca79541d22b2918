/** The skills a user's stored settings turn off (`disabled_skills`). */
export function disabledSkillsOf(stored: Record<string, unknown>): string[] {
  const names = stored.disabled_skills;
  return Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string') : [];
}
