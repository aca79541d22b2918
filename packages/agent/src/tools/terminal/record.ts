import { terminalShapes } from '@bosun/protocol';
import { LOW_RISK } from '../risk-subject.ts';
import { toolRecord } from '../tool-record.ts';
import { createTerminalTool } from './terminal-tool.ts';

export const terminalRecord = toolRecord({
  name: 'terminal',
  shapes: terminalShapes,
  secondsParams: ['soft_timeout_seconds'],
  riskSubject: (action) => {
    const command = action.command.trim();
    // Waiting for output, or a control key (C-c): nothing new runs.
    if (command === '' || /^C-[a-zA-Z]$/.test(command)) return LOW_RISK;
    return { kind: 'command', command };
  },
  create: (params, options) => [
    createTerminalTool({
      ...(params.soft_timeout_seconds !== undefined
        ? { softTimeoutMs: Number(params.soft_timeout_seconds) * 1000 }
        : {}),
      ...(options.env ? { env: options.env } : {}),
    }),
  ],
});
