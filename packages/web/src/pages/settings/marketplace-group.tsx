import type { Marketplace, MarketplaceScope } from '@bosun/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApiContext } from '../../api/client.tsx';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Badge } from '../../ui/feedback.tsx';
import { MarketplaceDialog } from './marketplace-dialog.tsx';
import { type PendingUpdate, UpdateReview } from './marketplace-update.tsx';
import { orgWrite, shortSha, skillsKeys } from './skills-keys.ts';

const SCOPE_LABEL: Record<MarketplaceScope, string> = {
  instance: 'Instance',
  organization: 'Organization',
  personal: 'Personal',
};

interface GroupProps {
  title: string;
  headingId: string;
  items: Marketplace[];
  updates: Map<string, PendingUpdate>;
  orgVersion: string | null;
  note?: string;
  empty: string;
}

/** One scope's marketplaces (yours, the organization's, the instance's), each with its facts and actions. */
export function MarketplaceGroup({ title, headingId, items, updates, orgVersion, note, empty }: GroupProps) {
  return (
    <section className="card marketplace-group" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      {note && <p className="muted small">{note}</p>}
      {items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="settings-list">
          {items.map((item) => (
            <MarketplaceRow
              key={`${item.scope}/${item.name}`}
              marketplace={item}
              update={updates.get(`${item.scope}/${item.name}`)}
              orgVersion={orgVersion}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function MarketplaceRow({
  marketplace,
  update,
  orgVersion,
}: {
  marketplace: Marketplace;
  update: PendingUpdate | undefined;
  orgVersion: string | null;
}) {
  const { api } = useApiContext();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [reviewing, setReviewing] = useState(false);
  const remove = async () => {
    await api.delete('/api/v1/marketplaces/{scope}/{name}', {
      params: { scope: marketplace.scope, name: marketplace.name },
      query: orgWrite(marketplace, orgVersion),
    });
    await queryClient.invalidateQueries({ queryKey: skillsKeys.all });
  };
  const { name } = marketplace;
  return (
    <li className="settings-item marketplace-item">
      <div className="settings-item-main">
        <div className="row marketplace-title">
          <strong>{name}</strong>
          <Badge>{SCOPE_LABEL[marketplace.scope]}</Badge>
          {marketplace.auto_load ? <Badge tone="success">Auto-Load on</Badge> : <Badge>Auto-Load off</Badge>}
          {marketplace.updates === 'review' && <Badge tone="info">Updates reviewed</Badge>}
          {update && <Badge tone="warning">Update waiting</Badge>}
          {marketplace.overridden_by && (
            <Badge tone="warning" title="A later entry of the same name wins">
              Hidden by the {marketplace.overridden_by} one
            </Badge>
          )}
        </div>
        <dl className="marketplace-facts small">
          <div>
            <dt>Source</dt>
            <dd>
              <code>{marketplace.source}</code>
            </dd>
          </div>
          <div>
            <dt>{marketplace.updates === 'review' ? 'Pinned' : 'Ref'}</dt>
            <dd>
              {marketplace.updates === 'review' && marketplace.approved_ref ? (
                <>
                  commit <code title={marketplace.approved_ref}>{shortSha(marketplace.approved_ref)}</code>
                  {marketplace.ref ? (
                    <>
                      {' '}
                      of <code>{marketplace.ref}</code>
                    </>
                  ) : null}
                </>
              ) : marketplace.ref ? (
                <code>{marketplace.ref}</code>
              ) : (
                'default branch'
              )}
            </dd>
          </div>
          <div>
            <dt>Path</dt>
            <dd>{marketplace.repo_path ? <code>{marketplace.repo_path}</code> : 'repository root'}</dd>
          </div>
        </dl>
      </div>
      <div className="row settings-item-actions">
        {update && (
          <Button small variant="primary" onClick={() => setReviewing(true)} aria-label={`Review update of ${name}`}>
            Review update
          </Button>
        )}
        {marketplace.writable && (
          <>
            <Button small onClick={() => setEditing(true)} aria-label={`Edit ${name}`}>
              Edit
            </Button>
            <Button small variant="danger" onClick={() => setDeleting(true)} aria-label={`Delete ${name}`}>
              Delete
            </Button>
          </>
        )}
      </div>
      {marketplace.writable && (
        <>
          <MarketplaceDialog
            open={editing}
            onOpenChange={setEditing}
            editing={marketplace}
            canWriteOrganization={false}
            orgVersion={orgVersion}
          />
          <ConfirmDialog
            open={deleting}
            onOpenChange={setDeleting}
            title={`Delete the marketplace ${name}?`}
            confirm="Delete"
            onConfirm={remove}
          >
            {marketplace.scope === 'organization'
              ? 'New conversations of every member of the organization no longer get its plugins. '
              : 'Your new conversations no longer get its plugins. '}
            Running conversations keep what they started with.
          </ConfirmDialog>
        </>
      )}
      {update && (
        <UpdateReview
          open={reviewing}
          onOpenChange={setReviewing}
          marketplace={marketplace}
          update={update}
          orgVersion={orgVersion}
        />
      )}
    </li>
  );
}
