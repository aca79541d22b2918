import { describe, expect, it } from 'vitest';
import { launchConfigOf, parameterDefaults } from '../../src/plugin-directory/launch-config.ts';
import { withPluginParameters } from '../../src/plugin-directory/parameters.ts';

const text = (value: string) => ({ type: 'text' as const, text: value, cache_prompt: false });

describe('plugin parameters in the first message', () => {
  it('appends one plugin’s parameters to the message’s last text, as OpenHands does', () => {
    const request = withPluginParameters({
      plugins: [{ source: 'github:acme/weather', parameters: { city: 'Zürich', days: 3, metric: true } }],
      initial_message: { role: 'user', content: [text('first'), text('/weather:now')], run: false },
    });
    expect(request.initial_message?.content).toEqual([
      text('first'),
      text('/weather:now\n\nPlugin Configuration Parameters:\n- city: Zürich\n- days: 3\n- metric: true'),
    ]);
  });

  it('heads each plugin’s parameters with its name when several have some, and makes a message when none', () => {
    const request = withPluginParameters({
      plugins: [
        { source: 'github:acme/weather', parameters: { city: 'Oslo' } },
        { source: 'https://git.example/team/review.git', parameters: { strict: false } },
        { source: 'github:acme/plain' },
      ],
    });
    expect(request.initial_message).toEqual({
      role: 'user',
      content: [text('Plugin Configuration Parameters:\nweather:\n  - city: Oslo\nreview:\n  - strict: false')],
      run: true,
    });
  });

  it('names plugins of one marketplace by their folder, so each one’s parameters stay apart', () => {
    const request = withPluginParameters({
      plugins: [
        { source: 'github:acme/plugins', repo_path: 'plugins/greeter', parameters: { city: 'Zürich' } },
        { source: 'github:acme/plugins', repo_path: 'plugins/reviewer/', parameters: { depth: 'deep' } },
      ],
    });
    expect(request.initial_message?.content).toEqual([
      text('Plugin Configuration Parameters:\ngreeter:\n  - city: Zürich\nreviewer:\n  - depth: deep'),
    ]);
  });

  it('leaves a request without parameters as it is', () => {
    const request = { plugins: [{ source: 'github:a/b', parameters: {} }] };
    expect(withPluginParameters(request)).toBe(request);
  });
});

describe('a plugin’s launch configuration', () => {
  it('reads plugin.json’s fields before the marketplace entry’s, and says what it ignores', () => {
    const config = launchConfigOf(
      'weather',
      {
        entry_command: 'now',
        parameters: {
          city: { type: 'string', description: 'Where', required: true, default: 'Oslo' },
          days: { default: 3 },
          unit: { type: 'enum' },
          metric: { type: 'boolean', default: 'yes' },
          broken: 'x',
        },
        examples: ['/weather:now', { title: 'Tomorrow', prompt: '/weather:now tomorrow' }, { title: 'no prompt' }],
      },
      { entry_command: 'ignored', parameters: { other: {} } },
    );
    expect(config).toEqual({
      entry_command: '/weather:now',
      parameters: {
        city: { type: 'string', description: 'Where', required: true, default: 'Oslo' },
        days: { type: 'number', description: null, required: false, default: 3 },
        metric: { type: 'boolean', description: null, required: false, default: null },
      },
      examples: [
        { title: '/weather:now', prompt: '/weather:now' },
        { title: 'Tomorrow', prompt: '/weather:now tomorrow' },
      ],
      problems: [
        "parameters.unit: type 'enum' is not string, number or boolean; ignored",
        'parameters.metric: its default is not a boolean; no default',
        'parameters.broken: must be an object {type, description, required, default}; ignored',
        'examples[2]: expected {title, prompt} or a prompt; ignored',
      ],
    });
    expect(parameterDefaults(config)).toEqual({ city: 'Oslo', days: 3 });
  });

  it('falls back to the marketplace entry, and has nothing to launch with when neither says', () => {
    expect(launchConfigOf('kit', null, { entry_command: '/start', examples: 'x' })).toEqual({
      entry_command: '/kit:start',
      parameters: {},
      examples: [],
      problems: ["'examples' must be a list; ignored"],
    });
    const none = launchConfigOf('kit', {}, {});
    expect(none).toEqual({ entry_command: null, parameters: {}, examples: [], problems: [] });
    expect(parameterDefaults(none)).toBeNull();
  });
});

describe('the directory’s configuration', () => {
  it('reads OpenHands’ github://owner/repo@ref marketplace source as github:owner/repo at that ref', async () => {
    const { appServerConfig } = await import('../../src/config.ts');
    const { pluginDirectoryOf } = await import('../../src/plugin-directory/routes/plugin-directory.ts');
    const location = (values: object) => pluginDirectoryOf(appServerConfig(values), () => '').location;
    expect(location({ plugin_directory_source: 'github://acme/tools@v2' })).toEqual({
      source: 'github:acme/tools',
      ref: 'v2',
      repo_path: null,
    });
    expect(location({ plugin_directory_source: 'github:acme/tools', plugin_directory_path: 'market' })).toEqual({
      source: 'github:acme/tools',
      ref: null,
      repo_path: 'market',
    });
    expect(location({})).toBeNull();
  });
});
