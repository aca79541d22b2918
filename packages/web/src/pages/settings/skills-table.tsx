import type { SkillsTable, SkillsTableRow } from '@bosun/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useApi } from '../../api/client.tsx';
import { keys } from '../../api/queries.ts';
import { Badge, ErrorNotice } from '../../ui/feedback.tsx';
import { Names, ProblemList } from './marketplace-preview.tsx';
import { shortSha, skillsKeys } from './skills-keys.ts';

const SCOPES: Record<string, string> = { instance: 'Instance', organization: 'Organization', personal: 'Personal' };

/** A skill or command that can be turned off: its switch, named after it and its plugin. */
function Toggle({
  name,
  label,
  kind,
  plugin,
  on,
  busy,
  onChange,
}: {
  name: string;
  label: string;
  kind: 'skill' | 'command';
  plugin: string;
  on: boolean;
  busy: boolean;
  onChange(on: boolean): void;
}) {
  return (
    <li>
      <label className="skill-toggle">
        <input
          type="checkbox"
          role="switch"
          checked={on}
          aria-checked={on}
          disabled={busy}
          aria-label={`${label}: ${kind} of ${plugin}`}
          onChange={(event) => onChange(event.target.checked)}
        />
        <code className={on ? undefined : 'skill-off'}>{label}</code>
        {!on && <span className="muted small">off</span>}
      </label>
    </li>
  );
}

/**
 * Every plugin the next conversation would get from the registered marketplaces, read now: where it comes from, its
 * commit, what it brings and its problems; each skill and command with a switch that writes `disabled_skills`.
 */
export function SkillsAndPluginsTable({ table, orgId }: { table: SkillsTable; orgId: string | null }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<string | null>(null);
  const disabled = new Set(table.disabled_skills);
  const toggle = useMutation({
    mutationFn: async ({ name, on }: { name: string; on: boolean }) => {
      setPending(name);
      const next = new Set(disabled);
      if (on) next.delete(name);
      else next.add(name);
      await api.post('/api/v1/settings', { body: { disabled_skills: [...next] } });
    },
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: skillsKeys.table(orgId) }),
        queryClient.invalidateQueries({ queryKey: keys.settings }),
      ]);
      setPending(null);
    },
  });
  const rows = table.rows;
  const withAgents = rows.some((row) => Array.isArray((row as { agents?: unknown }).agents));
  // A column only when some plugin has hooks or MCP servers: a column of dashes pushed Problems out of sight at 1280 px.
  const withHooks = rows.some((row) => row.hooks.length + row.mcp_servers.length > 0);
  if (rows.length === 0) {
    return (
      <p className="muted">
        No plugin yet. Add a marketplace repository above; with Auto-Load on, its plugins come with every new
        conversation.
      </p>
    );
  }
  const toggleOf = (row: SkillsTableRow, name: string, label: string, kind: 'skill' | 'command') => (
    <Toggle
      key={name}
      name={name}
      label={label}
      kind={kind}
      plugin={row.name}
      on={!disabled.has(name)}
      busy={pending !== null}
      onChange={(on) => toggle.mutate({ name, on })}
    />
  );
  return (
    <>
      {toggle.isError && <ErrorNotice error={toggle.error} />}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than the page scrolls with the keyboard too */}
      <section className="skills-table-wrap" aria-label="Skills and plugins table" tabIndex={0}>
        <table className="table skills-table">
          <caption className="visually-hidden">
            Skills and plugins of the next conversation, with a switch for each skill and command
          </caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Source</th>
              <th scope="col">Commit</th>
              <th scope="col">Skills</th>
              <th scope="col">Commands</th>
              {withAgents && <th scope="col">Agents</th>}
              {withHooks && <th scope="col">Hooks and MCP servers</th>}
              <th scope="col">Problems</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.scope}/${row.marketplace}/${row.kind}/${row.name}`}>
                <th scope="row" data-label="Name">
                  <span className="skills-name">{row.name}</span>
                  {row.description && <span className="muted small skills-description">{row.description}</span>}
                </th>
                <td data-label="Kind">
                  <div className="cell">
                    <KindBadges row={row} />
                  </div>
                </td>
                <td data-label="Source">
                  <div className="cell">
                    <span className="small">
                      {row.marketplace} <span className="muted">({SCOPES[row.scope] ?? row.scope})</span>
                    </span>
                    {row.source && <code className="skills-source">{row.source}</code>}
                    {row.ref && row.ref !== row.resolved_ref && (
                      <span className="muted small">
                        {' '}
                        at {/^[0-9a-f]{40}$/.test(row.ref) ? shortSha(row.ref) : row.ref}
                      </span>
                    )}
                  </div>
                </td>
                <td data-label="Commit">
                  <div className="cell">
                    {row.resolved_ref ? (
                      <code title={row.resolved_ref}>{shortSha(row.resolved_ref)}</code>
                    ) : (
                      <span className="muted">—</span>
                    )}
                    {row.pending_ref && (
                      <span className="small skills-pending">
                        <Badge tone="info" title={`Its marketplace moved to ${row.pending_ref}: review the update`}>
                          <span aria-hidden="true">→ </span>
                          <span className="visually-hidden">Update waiting: </span>
                          {shortSha(row.pending_ref)}
                        </Badge>
                      </span>
                    )}
                  </div>
                </td>
                <TogglesCell label="Skills" toggles={row.skills.map((skill) => toggleOf(row, skill, skill, 'skill'))} />
                <TogglesCell
                  label="Commands"
                  toggles={row.commands.map((command) => toggleOf(row, command.replace(/^\//, ''), command, 'command'))}
                />
                {withAgents && (
                  <td data-label="Agents">
                    <div className="cell">
                      <Names names={(row as { agents?: string[] }).agents ?? []} />
                    </div>
                  </td>
                )}
                {withHooks && (
                  <td
                    data-label="Hooks and MCP servers"
                    className={row.hooks.length + row.mcp_servers.length === 0 ? 'skills-empty' : undefined}
                  >
                    <div className="cell">
                      <Names names={[...row.hooks, ...row.mcp_servers.map((server) => `MCP: ${server}`)]} />
                    </div>
                  </td>
                )}
                <td data-label="Problems">
                  <div className="cell">
                    {row.problems.length === 0 ? (
                      <span className="muted">None</span>
                    ) : (
                      <ProblemList problems={row.problems} />
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

/** What a row is (a plugin, a marketplace that could not be read, a skills repository) and whether it loads. */
function KindBadges({ row }: { row: SkillsTableRow }) {
  if (row.kind === 'skill_repository') {
    return (
      <>
        <Badge tone="info">{row.scope === 'organization' ? 'Organization skills' : 'Your skills'}</Badge>{' '}
        {row.resolved_ref ? <Badge tone="success">Every conversation</Badge> : <Badge>Not read</Badge>}
      </>
    );
  }
  return (
    <>
      <Badge tone={row.kind === 'marketplace' ? 'warning' : 'neutral'}>
        {row.kind === 'marketplace' ? 'Marketplace' : 'Plugin'}
      </Badge>{' '}
      {row.auto_load ? <Badge tone="success">Auto-Load</Badge> : <Badge>Available</Badge>}
    </>
  );
}

/** A column's cell of a plugin's switches (its skills, its commands), a dash when it has none. */
function TogglesCell({ label, toggles }: { label: string; toggles: ReactNode[] }) {
  return (
    <td data-label={label} className={toggles.length === 0 ? 'skills-empty' : undefined}>
      <div className="cell">
        {toggles.length === 0 ? <span className="muted">—</span> : <ul className="name-list">{toggles}</ul>}
      </div>
    </td>
  );
}
