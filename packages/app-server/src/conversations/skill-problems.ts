import type { AgentServerClient } from '@bosun/client';
import type { SkillRepository } from '@bosun/protocol';
import { whyNot } from './agent-refusal.ts';

/**
 * The errors and warnings of the skills the project and the skills repositories would load (information about the
 * merge left out): a name defined both in `.agents` and in the legacy `.bosun` among them. The repositories are
 * fetched into the sandbox's cache at their commits here, so the conversation's agent finds them there.
 */
export async function skillProblems(
  agent: AgentServerClient,
  projectDir: string,
  repositories: SkillRepository[],
): Promise<string[]> {
  try {
    const skills = await agent.post('/api/skills', {
      body: {
        load_public: false,
        load_org: repositories.length > 0,
        load_user: repositories.length > 0,
        project_dir: projectDir,
        skill_repositories: repositories,
      },
    });
    return skills.diagnostics
      .filter((diagnostic) => diagnostic.severity !== 'info')
      .map((diagnostic) => `skill ${diagnostic.file}: ${diagnostic.severity}: ${diagnostic.message}`);
  } catch (error) {
    return [`skills could not be read: ${whyNot(error)}`];
  }
}
