import { describe, expect, it } from 'vitest';
import { call } from './support/http.ts';
import { testServerPerFile } from './support/shared-server.ts';

const server = testServerPerFile({ sessionApiKeys: ['root-key'] });

describe('GET /', () => {
  it('answers the server info, as /server_info does, without a key (OpenHands without static files)', async () => {
    const root = await call<Record<string, unknown>>(server.url, '/');
    expect(root.status).toBe(200);
    const info = await call<Record<string, unknown>>(server.url, '/server_info');
    const { uptime: _a, idle_time: _b, ...stable } = root.body;
    const { uptime: _c, idle_time: _d, ...expected } = info.body;
    expect(stable).toEqual(expected);
    expect(root.body).toMatchObject({ title: expect.any(String), version: expect.any(String), docs: '/docs' });
    expect(root.body.uptime).toEqual(expect.any(Number));
  });
});

describe('the OpenAPI document', () => {
  it('has the bash, file, Git, hooks and ask_agent operations, with their shapes and OpenHands ids', async () => {
    const doc = (
      await call<{ paths: Record<string, Record<string, { operationId: string }>>; components: unknown }>(
        server.url,
        '/openapi.json',
      )
    ).body;
    const expected: [string, string, string][] = [
      ['post', '/api/bash/start_bash_command', 'start_bash_command_api_bash_start_bash_command_post'],
      ['post', '/api/bash/execute_bash_command', 'execute_bash_command_api_bash_execute_bash_command_post'],
      ['get', '/api/bash/bash_events/search', 'search_bash_events_api_bash_bash_events_search_get'],
      ['get', '/api/bash/bash_events/{event_id}', 'get_bash_event_api_bash_bash_events__event_id__get'],
      ['get', '/api/bash/bash_events/', 'batch_get_bash_events_api_bash_bash_events__get'],
      ['delete', '/api/bash/bash_events', 'clear_all_bash_events_api_bash_bash_events_delete'],
      ['post', '/api/file/upload', 'upload_file_api_file_upload_post'],
      ['get', '/api/file/download', 'download_file_api_file_download_get'],
      [
        'get',
        '/api/file/download-trajectory/{conversation_id}',
        'download_trajectory_api_file_download_trajectory__conversation_id__get',
      ],
      ['get', '/api/git/changes', 'git_changes_api_git_changes_get'],
      ['get', '/api/git/diff', 'git_diff_api_git_diff_get'],
      ['post', '/api/hooks', 'get_hooks_api_hooks_post'],
      [
        'post',
        '/api/conversations/{conversation_id}/ask_agent',
        'ask_agent_api_conversations__conversation_id__ask_agent_post',
      ],
    ];
    for (const [method, path, id] of expected) expect(doc.paths[path]?.[method]?.operationId, path).toBe(id);
    const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
    for (const name of [
      'ExecuteBashRequest',
      'BashCommand',
      'BashOutput',
      'BashEvent',
      'BashEventPage',
      'GitChange',
      'GitDiff',
    ]) {
      expect(schemas[name], name).toBeDefined();
    }
    expect(JSON.stringify(doc.paths['/api/bash/bash_events/search'])).toContain('#/components/schemas/BashEventPage');
  });
});
