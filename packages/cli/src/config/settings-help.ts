import type { TObject } from '@sinclair/typebox';
import { type Setting, settingsOf } from './settings.ts';

/** The `parseArgs` options of a schema's flags (a boolean's `--no-` twin too), plus `--config FILE`. */
export function flagOptions(schema: TObject): Record<string, { type: 'string' | 'boolean' }> {
  const options: Record<string, { type: 'string' | 'boolean' }> = { config: { type: 'string' } };
  for (const setting of settingsOf(schema)) {
    if (!setting.flag) continue;
    const isSwitch = setting.schema.type === 'boolean';
    options[setting.flag] = { type: isSwitch ? 'boolean' : 'string' };
    if (isSwitch) options[`no-${setting.flag}`] = { type: 'boolean' };
  }
  return options;
}

/** Every setting of `schema`: its flag, variable and file key, its default and what it means. */
export function settingsHelp(schema: TObject, configEnv = 'BOSUN_CONFIG'): string {
  return [
    `Settings come from flags, else the environment, else a file given by --config FILE (or ${configEnv}),`,
    'JSON or YAML, whose keys are the names below; else the default. A bad value stops the start, naming it.',
    '',
    ...settingsOf(schema).flatMap(describe),
  ].join('\n');
}

function describe(setting: Setting): string[] {
  const flag = setting.flag && (setting.schema.type === 'boolean' ? `--[no-]${setting.flag}` : `--${setting.flag}`);
  const names = [flag, setting.env, `${setting.key}:`].filter(Boolean);
  const value = setting.schema.default;
  const shown = Array.isArray(value) ? value.join(',') : value;
  const fallback = value === undefined || shown === '' ? '' : ` (default: ${shown})`;
  const list = setting.schema.type === 'array' ? ' Comma-separated (a list in the file).' : '';
  const file = setting.file ? ` Or in a file: ${setting.file.env}, ${setting.file.key}:.` : '';
  const secret = setting.secret ? ` Secret: no flag, never shown.${file}` : '';
  return [`  ${names.join('  ')}${fallback}`, `      ${setting.schema.description ?? ''}${list}${secret}`];
}
