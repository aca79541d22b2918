import { ConflictError, InputError } from '@bosun/http';
import type { Marketplace, MarketplaceRegistration, ValidationError } from '@bosun/protocol';
import type {
  MarketplaceChange,
  MarketplaceRow,
  NewMarketplace,
  PersonalListChange,
  Repositories,
  TransactionWrite,
} from '../data/index.ts';
import { approvalChange } from './approval.ts';
import { type ValidRegistration, validRegistration } from './registration.ts';
import type { Caller, MarketplaceRegistry } from './registry.ts';

/** The settings' view of the marketplaces: the caller's own, and those inherited (instance, organization). */
export interface SettingsMarketplaces {
  registered: Marketplace[];
  inherited: Marketplace[];
}

const AT = ['body', 'registered_marketplaces'];

/**
 * A user's personal marketplaces as OpenHands' settings carry them: read beside the inherited ones, and written
 * as a whole list that replaces the old one. Each entry is validated as one registered through `/marketplaces`
 * (same rules, located under `body.registered_marketplaces.<i>`); a name given twice or taken by an inherited
 * marketplace is a 409. Every check runs before the write, which joins the settings' transaction: a refused list
 * changes nothing, and the list and the other fields of one settings update land together or not at all.
 */
export class PersonalMarketplaces {
  constructor(
    private readonly registry: MarketplaceRegistry,
    private readonly repository: Repositories['marketplaces'],
  ) {}

  async view(caller: Caller): Promise<SettingsMarketplaces> {
    const { items } = await this.registry.list(caller, undefined);
    return {
      registered: items.filter((item) => item.scope === 'personal'),
      inherited: items.filter((item) => item.scope !== 'personal'),
    };
  }

  /** Checks `list` as a replacement of the user's (network round trips included) and answers its write. */
  async replacement(userId: string, list: readonly MarketplaceRegistration[]): Promise<TransactionWrite> {
    const wanted = validList(list);
    const taken = await this.registry.inheritedNames(userId);
    for (const entry of wanted) {
      const why = taken.get(entry.name);
      if (why) throw new ConflictError(why);
    }
    const before = await this.repository.list([{ scope: 'personal', userId }]);
    const plan = await this.plan(userId, before, wanted);
    return (trx) => this.repository.replacePersonalIn(trx, userId, plan);
  }

  /** The writes from `before` to `wanted`: an entry of the same name and source is changed, else replaced. */
  private async plan(
    userId: string,
    before: MarketplaceRow[],
    wanted: ValidRegistration[],
  ): Promise<PersonalListChange> {
    const byName = new Map(before.map((row) => [row.name, row]));
    const kept = (entry: ValidRegistration) => {
      const row = byName.get(entry.name);
      return row && row.source === entry.source ? row : undefined;
    };
    const changed: [string, MarketplaceChange][] = [];
    const added: NewMarketplace[] = [];
    for (const [index, entry] of wanted.entries()) {
      const head = (ref: string | null) => this.registry.head(userId, entry.source, ref, [...AT, index]);
      const row = kept(entry);
      if (row) {
        const change = {
          ref: entry.ref,
          repo_path: entry.repo_path,
          auto_load: entry.auto_load,
          updates: entry.updates,
        };
        const refMoved = entry.ref !== row.ref;
        const approval = await approvalChange(
          row,
          { updates: entry.updates, ref: refMoved ? entry.ref : undefined },
          head,
        );
        changed.push([entry.name, { ...change, ...approval }]);
        continue;
      }
      const checked = await this.registry.checked(userId, entry.source, entry.ref, [...AT, index]);
      const approved_ref = entry.updates === 'review' ? (checked ?? (await head(entry.ref))) : null;
      added.push({ ...entry, approved_ref, registeredBy: userId });
    }
    const removed = before.filter((row) => !wanted.some((entry) => kept(entry) === row)).map((row) => row.name);
    return { removed, changed, added };
  }
}

/** Every entry validated (422 with every problem), then each name once (409). */
function validList(list: readonly MarketplaceRegistration[]): ValidRegistration[] {
  const problems: ValidationError[] = [];
  const valid: ValidRegistration[] = [];
  list.forEach((item, index) => {
    const checked = validRegistration(item, [...AT, index]);
    if (Array.isArray(checked)) problems.push(...checked);
    else valid.push(checked);
  });
  if (problems.length) throw new InputError(problems);
  const seen = new Set<string>();
  for (const entry of valid) {
    if (seen.has(entry.name)) throw new ConflictError(`two marketplaces of the list are named ${entry.name}`);
    seen.add(entry.name);
  }
  return valid;
}
