import type { AppServerConfig } from '../config.ts';
import { gitHubAppProblems } from '../config/github-app.ts';
import { signInProblems } from '../config/sign-in.ts';
import { instanceMarketplaces } from '../marketplaces/instance.ts';

/** What the keys say together that none says alone: one line per problem, naming the keys. */
export function appServerConfigProblems(config: AppServerConfig): string[] {
  const problems: string[] = [];
  const s3Keys = ['s3_endpoint', 's3_region', 's3_access_key_id', 's3_secret_access_key'] as const;
  const given = s3Keys.filter((key) => config[key] !== undefined);
  if (config.s3_bucket === undefined && given.length > 0) {
    problems.push(`s3_bucket: needed when ${given.join(', ')} ${given.length > 1 ? 'are' : 'is'} set`);
  }
  if ((config.s3_access_key_id === undefined) !== (config.s3_secret_access_key === undefined)) {
    problems.push('s3_access_key_id, s3_secret_access_key: give both or neither');
  }
  problems.push(...instanceMarketplaces(config.instance_marketplaces ?? []).problems);
  if (config.runtime_api_url !== undefined && (config.sandbox_warm_pool_size ?? 0) > 0) {
    problems.push('sandbox_warm_pool_size: a runtime service keeps its own warm pools (its warm_pool_size)');
  }
  if ((config.runtime_api_url === undefined) !== (config.runtime_api_key === undefined)) {
    problems.push('runtime_api_url, runtime_api_key: give both or neither');
  }
  if ((config.sandbox_allow_hosts ?? []).length > 0 && config.sandbox_network !== 'allow') {
    problems.push(`sandbox_allow_hosts: only used with sandbox_network allow (it is ${config.sandbox_network})`);
  }
  problems.push(...signInProblems(config));
  problems.push(...gitHubAppProblems(config));
  return problems;
}
