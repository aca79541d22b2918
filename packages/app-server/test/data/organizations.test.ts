import { expect, it } from 'vitest';
import { AlreadyMemberError, LastOwnerError } from '../../src/data/index.ts';
import { describeEachDatabase } from '../support/databases.ts';

describeEachDatabase('organizations', (each) => {
  const setUp = async () => {
    const { repositories } = await each.shared();
    const { users, organizations } = repositories;
    const [owner, other, outsider] = await Promise.all([users.create(), users.create(), users.create()]);
    const org = await organizations.create({ name: 'Acme', ownerUserId: owner.id });
    return { organizations, owner, other, outsider, org };
  };

  it('makes the creator its owner and lists it for members only, with their role', async () => {
    const { organizations, owner, other, outsider, org } = await setUp();
    expect(org).toMatchObject({ name: 'Acme', role: 'owner' });
    expect(await organizations.get(org.id)).toEqual({ id: org.id, name: 'Acme', created_at: org.created_at });
    expect(await organizations.role(org.id, owner.id)).toBe('owner');
    await organizations.addMember(org.id, other.id, 'member');
    expect(await organizations.listForUser(other.id)).toEqual([{ ...org, role: 'member' }]);
    expect(await organizations.listForUser(outsider.id)).toEqual([]);
    expect(await organizations.role(org.id, outsider.id)).toBeUndefined();
    expect(await organizations.members(org.id)).toEqual([
      { user_id: owner.id, email: null, name: null, role: 'owner', joined_at: org.created_at },
      { user_id: other.id, email: null, name: null, role: 'member', joined_at: expect.any(String) },
    ]);
    expect(await organizations.get('no-such-org')).toBeUndefined();
  });

  it('adds a member once, changes roles, and removes members', async () => {
    const { organizations, other, outsider, org } = await setUp();
    await organizations.addMember(org.id, other.id, 'member');
    await expect(organizations.addMember(org.id, other.id, 'admin')).rejects.toThrow(AlreadyMemberError);
    expect(await organizations.setRole(org.id, other.id, 'admin')).toBe(true);
    expect(await organizations.role(org.id, other.id)).toBe('admin');
    expect(await organizations.setRole(org.id, outsider.id, 'admin')).toBe(false);
    expect(await organizations.removeMember(org.id, other.id)).toBe(true);
    expect(await organizations.removeMember(org.id, other.id)).toBe(false);
    expect(await organizations.role(org.id, other.id)).toBeUndefined();
  });

  it('never lets the last owner leave or be demoted, but one of two owners may', async () => {
    const { organizations, owner, other, org } = await setUp();
    await expect(organizations.removeMember(org.id, owner.id)).rejects.toThrow(LastOwnerError);
    await expect(organizations.setRole(org.id, owner.id, 'admin')).rejects.toThrow(LastOwnerError);
    expect(await organizations.setRole(org.id, owner.id, 'owner')).toBe(true);
    await organizations.addMember(org.id, other.id, 'owner');
    expect(await organizations.setRole(org.id, owner.id, 'member')).toBe(true);
    await expect(organizations.removeMember(org.id, other.id)).rejects.toThrow(LastOwnerError);
    expect(await organizations.members(org.id)).toHaveLength(2);
  });

  it('two owners demoting themselves at once leave exactly one owner', async () => {
    for (let round = 0; round < 5; round++) {
      const { organizations, owner, other, org } = await setUp();
      await organizations.addMember(org.id, other.id, 'owner');
      const outcomes = await Promise.allSettled([
        organizations.setRole(org.id, owner.id, 'member'),
        organizations.removeMember(org.id, other.id),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const rejected = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
      expect(rejected.reason).toBeInstanceOf(LastOwnerError);
      const owners = (await organizations.members(org.id)).filter((member) => member.role === 'owner');
      expect(owners).toHaveLength(1);
    }
  });
});
