import { HttpError, InputError } from '@bosun/http';
import type { MarketplacePreview, MarketplaceRegistration } from '@bosun/protocol';
import { Type } from '@sinclair/typebox';
import type { MarketplaceGit } from '../index.ts';
import { previewMarketplace } from '../preview.ts';
import { nameFromSource } from '../registration.ts';

/** A skill of a previewed marketplace, as OpenHands' UI lists it: `plugin:skill`, with where it comes from. */
interface PreviewSkill {
  name: string;
  plugin: string;
  marketplace: string;
}

/** OpenHands' answer to `POST /api/v1/skills/marketplace-skills` with an array of registrations. */
export interface MarketplaceSkills {
  skills: PreviewSkill[];
  plugins: { name: string; description: string | null; source: string | null; marketplace: string }[];
  marketplace_skills: Record<string, PreviewSkill[]>;
  errors: string[];
}

/**
 * Each registration read at its ref, as `POST /skills/marketplace-skills` reads one (the same guard, fetch and
 * readers), gathered in OpenHands' shape: every plugin, every skill (also by marketplace) and, as OpenHands collects
 * them, every error as `"<name>: <message>"` — one marketplace failing never hides the others.
 */
export async function marketplaceSkills(
  git: MarketplaceGit,
  userId: string,
  registrations: MarketplaceRegistration[],
): Promise<MarketplaceSkills> {
  const answer: MarketplaceSkills = { skills: [], plugins: [], marketplace_skills: {}, errors: [] };
  for (const registration of registrations) {
    const marketplace = registration.name ?? nameFromSource(registration.source);
    let preview: MarketplacePreview;
    try {
      const { source, ref, repo_path } = registration;
      preview = await previewMarketplace(git, userId, { source, ref: ref ?? null, repo_path: repo_path ?? null });
    } catch (error) {
      // What the single preview answers as a 4xx (a bad field, a repository without a marketplace); else a fault.
      if (!(error instanceof InputError || error instanceof HttpError)) throw error;
      answer.errors.push(`${marketplace}: ${error.message}`);
      continue;
    }
    const skills: PreviewSkill[] = [];
    for (const entry of preview.marketplace.entries) {
      answer.plugins.push({
        name: entry.name,
        description: entry.description ?? null,
        source: entry.source,
        marketplace,
      });
      const plugin = entry.contents?.plugin ?? entry.name;
      // Inspection names a plugin's skills as the agent does: `plugin:skill` already.
      for (const skill of entry.contents?.skills ?? []) skills.push({ name: skill, plugin, marketplace });
      for (const problem of entry.problems) answer.errors.push(`${marketplace}: ${entry.name}: ${problem.message}`);
    }
    for (const problem of preview.marketplace.problems) answer.errors.push(`${marketplace}: ${problem.message}`);
    answer.skills.push(...skills);
    answer.marketplace_skills[marketplace] = skills;
  }
  return answer;
}

/** The documented shape of `MarketplaceSkills`. */
export const MarketplaceSkillsAnswer = Type.Object(
  {
    skills: Type.Array(Type.Object({ name: Type.String(), plugin: Type.String(), marketplace: Type.String() })),
    plugins: Type.Array(Type.Object({}, { additionalProperties: true })),
    marketplace_skills: Type.Record(Type.String(), Type.Array(Type.Object({}, { additionalProperties: true }))),
    errors: Type.Array(Type.String()),
  },
  { description: 'OpenHands’ answer to an array of registrations.' },
);
