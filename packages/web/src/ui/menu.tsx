import * as Menu from '@radix-ui/react-dropdown-menu';
import type { ReactNode } from 'react';

export interface MenuAction {
  label: ReactNode;
  onSelect(): void;
  danger?: boolean;
}

/** A menu opened by a button: arrow keys move, Enter chooses, Escape closes. */
export function ActionMenu({ trigger, label, actions }: { trigger: ReactNode; label: string; actions: MenuAction[] }) {
  return (
    <Menu.Root>
      <Menu.Trigger className="btn btn-ghost btn-small" aria-label={label}>
        {trigger}
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content className="menu" align="end" sideOffset={4}>
          {actions.map((action, index) => (
            <Menu.Item
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
              key={index}
              className="menu-item"
              style={action.danger ? { color: 'var(--danger)' } : undefined}
              onSelect={action.onSelect}
            >
              {action.label}
            </Menu.Item>
          ))}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}

export { Menu };
