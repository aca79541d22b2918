import type { MarketplaceUpdates } from '@bosun/protocol';

interface MarketplaceOptionsProps {
  /** Whether the scope is asked (adding one, by an owner or admin of the organization acted in). */
  chooseScope: boolean;
  organizationName?: string | undefined;
  scope: 'personal' | 'organization';
  setScope(scope: 'personal' | 'organization'): void;
  autoLoad: boolean;
  setAutoLoad(autoLoad: boolean): void;
  updates: MarketplaceUpdates;
  setUpdates(updates: MarketplaceUpdates): void;
  /** The form's ids: the scope's radio group, and the updates' group (its Auto-Load hint too). */
  scopeName: string;
  updatesName: string;
}

/** A marketplace's scope (when asked), its Auto-Load switch and how it follows updates. */
export function MarketplaceOptions({
  chooseScope,
  organizationName,
  scope,
  setScope,
  autoLoad,
  setAutoLoad,
  updates,
  setUpdates,
  scopeName,
  updatesName,
}: MarketplaceOptionsProps) {
  return (
    <>
      {chooseScope && (
        <fieldset className="field marketplace-choice">
          <legend className="field-label">Scope</legend>
          <label className="checkbox">
            <input type="radio" name={scopeName} checked={scope === 'personal'} onChange={() => setScope('personal')} />
            Personal: your conversations only
          </label>
          <label className="checkbox">
            <input
              type="radio"
              name={scopeName}
              checked={scope === 'organization'}
              onChange={() => setScope('organization')}
            />
            Organization: every member of {organizationName ?? 'the organization'}
          </label>
        </fieldset>
      )}
      <div className="field">
        <label className="checkbox">
          <input
            type="checkbox"
            role="switch"
            checked={autoLoad}
            aria-checked={autoLoad}
            onChange={(event) => setAutoLoad(event.target.checked)}
            aria-describedby={`${updatesName}-auto-hint`}
          />
          Auto-Load
        </label>
        <span className="hint" id={`${updatesName}-auto-hint`}>
          Load its plugins into every new conversation. Off: they are only available.
        </span>
      </div>
      <fieldset className="field marketplace-choice">
        <legend className="field-label">Updates</legend>
        <label className="checkbox">
          <input type="radio" name={updatesName} checked={updates === 'follow'} onChange={() => setUpdates('follow')} />
          Follow the branch: new conversations load its latest commit
        </label>
        <label className="checkbox">
          <input type="radio" name={updatesName} checked={updates === 'review'} onChange={() => setUpdates('review')} />
          Review each update: stay on the approved commit until you approve a newer one
        </label>
      </fieldset>
    </>
  );
}
