import type { ComponentChanges, Marketplace, SkillsTableRow } from '@bosun/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/client.tsx';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { Badge, ErrorNotice } from '../../ui/feedback.tsx';
import { orgWrite, shortSha, skillsKeys } from './skills-keys.ts';

/** A followed-by-review marketplace's pending update: the commit its ref names now, and the rows it changes. */
export interface PendingUpdate {
  pendingRef: string;
  approvedRef: string | null;
  rows: SkillsTableRow[];
}

/** The pending updates of the table, by `scope/name` of their marketplace. */
export function pendingUpdates(rows: readonly SkillsTableRow[]): Map<string, PendingUpdate> {
  const updates = new Map<string, PendingUpdate>();
  for (const row of rows) {
    if (!row.pending_ref) continue;
    const key = `${row.scope}/${row.marketplace}`;
    const update = updates.get(key) ?? { pendingRef: row.pending_ref, approvedRef: row.resolved_ref, rows: [] };
    update.rows.push(row);
    updates.set(key, update);
  }
  return updates;
}

const PARTS = [
  ['skills', 'Skills'],
  ['commands', 'Commands'],
  ['hooks', 'Hooks'],
  ['mcp_servers', 'MCP servers'],
] as const;

const STATUS: Record<string, { label: string; tone: 'success' | 'danger' | 'info' | 'neutral' }> = {
  added: { label: 'New plugin', tone: 'success' },
  removed: { label: 'Plugin removed', tone: 'danger' },
  changed: { label: 'Changed', tone: 'info' },
  unchanged: { label: 'Unchanged', tone: 'neutral' },
};

function ChangeList({ label, changes }: { label: string; changes: ComponentChanges }) {
  if (changes.added.length === 0 && changes.removed.length === 0) return null;
  return (
    <div className="update-part">
      <span className="field-label">{label}</span>
      <ul className="change-list">
        {changes.added.map((name) => (
          <li key={`+${name}`} className="change-added">
            <span aria-hidden="true">+ </span>
            <span className="visually-hidden">Added: </span>
            <code>{name}</code>
          </li>
        ))}
        {changes.removed.map((name) => (
          <li key={`-${name}`} className="change-removed">
            <span aria-hidden="true">− </span>
            <span className="visually-hidden">Removed: </span>
            <code>{name}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}

interface UpdateReviewProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  marketplace: Marketplace;
  update: PendingUpdate;
  orgVersion: string | null;
}

/** What a reviewed marketplace's update changes, plugin by plugin; approve it or stay on the approved commit. */
export function UpdateReview({ open, onOpenChange, marketplace, update, orgVersion }: UpdateReviewProps) {
  const api = useApi();
  const queryClient = useQueryClient();
  const approve = useMutation({
    mutationFn: () => {
      const { expected_version, ...inOrg } = orgWrite(marketplace, orgVersion);
      return api.post('/api/v1/marketplaces/{scope}/{name}/approve', {
        params: { scope: marketplace.scope, name: marketplace.name },
        query: inOrg,
        body: { approved_ref: update.pendingRef, expected_version },
      });
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: skillsKeys.all });
      onOpenChange(false);
    },
  });
  const changed = update.rows.filter((row) => row.changes && row.changes.status !== 'unchanged');
  const unchanged = update.rows.length - changed.length;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) approve.reset();
        onOpenChange(next);
      }}
      title={`Update of ${marketplace.name}`}
      description={
        <>
          {marketplace.ref ? (
            <>
              Its ref <code>{marketplace.ref}</code>
            </>
          ) : (
            'Its default branch'
          )}{' '}
          now names commit <code>{shortSha(update.pendingRef)}</code>; new conversations still load the approved commit{' '}
          <code>{shortSha(update.approvedRef ?? marketplace.approved_ref)}</code>.
        </>
      }
    >
      {changed.length === 0 ? (
        <p>No plugin changes what it brings: approving only moves to the newer commit.</p>
      ) : (
        <ul className="update-plugins">
          {changed.map((row) => {
            const status = STATUS[row.changes?.status ?? 'changed'] ?? STATUS.changed;
            return (
              <li key={row.name} className="update-plugin">
                <div className="row">
                  <strong>{row.name}</strong>
                  {status && <Badge tone={status.tone}>{status.label}</Badge>}
                </div>
                {row.changes &&
                  PARTS.map(([key, label]) => (
                    <ChangeList key={key} label={label} changes={row.changes?.[key] ?? { added: [], removed: [] }} />
                  ))}
              </li>
            );
          })}
        </ul>
      )}
      {unchanged > 0 && (
        <p className="muted small">
          {unchanged} other plugin{unchanged === 1 ? '' : 's'} unchanged.
        </p>
      )}
      {approve.isError && <ErrorNotice error={approve.error} />}
      {!marketplace.writable && (
        <p className="muted small">Only the organization’s owners and admins approve its updates.</p>
      )}
      <div className="row form-actions">
        <span className="spacer" />
        <Button autoFocus onClick={() => onOpenChange(false)}>
          Stay on {shortSha(update.approvedRef ?? marketplace.approved_ref)}
        </Button>
        {marketplace.writable && (
          <Button variant="primary" busy={approve.isPending} onClick={() => approve.mutate()}>
            Approve {shortSha(update.pendingRef)}
          </Button>
        )}
      </div>
    </Dialog>
  );
}
