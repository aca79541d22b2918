import { startAppStack } from './support/app-stack.ts';
import { httpRequest, keepAliveAgent } from './support/http.ts';
import { hrMs } from './support/stats.ts';
const stack = await startAppStack('probe', { warmPoolSize: 0, config: {} });
const agent = keepAliveAgent(1);
const { url } = stack.running;
for (let round = 0; round < 6; round++) {
  const t0 = hrMs();
  const body = { initial_message: { role: 'user', content: [{ type: 'text', text: `r${round}` }] } };
  const answer = await httpRequest(agent, `${url}/api/v1/app-conversations`, 'POST', body, stack.headers);
  const taskId = JSON.parse(answer.body).id;
  const seen: string[] = [`POST ${(hrMs() - t0).toFixed(0)}`];
  let last = '';
  let task: any;
  for (;;) {
    task = JSON.parse((await httpRequest(agent, `${url}/api/v1/app-conversations/start-tasks?ids=${taskId}`, 'GET', undefined, stack.headers)).body)[0];
    if (task.status !== last) { last = task.status; seen.push(`${last} ${(hrMs() - t0).toFixed(0)}`); }
    if (task.status === 'READY' || task.status === 'ERROR') break;
    await new Promise((r) => setTimeout(r, 2));
  }
  console.log(seen.join(' | '));
  const { execSync } = await import('node:child_process');
  console.log(execSync(`cat /tmp/bosun-bench-probe-*/sandboxes/*/agent-server.log | grep -o '"ms":[0-9]*,"msg":"[^"]*"' | tail -1`).toString());
  if (process.env.KEEP !== "1")   await httpRequest(agent, `${url}/api/v1/app-conversations/${task.app_conversation_id}`, 'DELETE', undefined, stack.headers);
}
agent.destroy();
await stack.close();
