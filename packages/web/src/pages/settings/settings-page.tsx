import { NavLink, Navigate, Route, Routes } from 'react-router';
import { ApiKeysSettings } from './api-keys-settings.tsx';
import { GeneralSettings } from './general-settings.tsx';
import { GitSettings } from './git-settings.tsx';
import { LlmSettings } from './llm-settings.tsx';
import { SecretsSettings } from './secrets-settings.tsx';
import { SkillsSettings } from './skills-settings.tsx';
import './settings.css';

const TABS = [
  { path: 'llm', label: 'LLM' },
  { path: 'secrets', label: 'Secrets' },
  { path: 'api-keys', label: 'API keys' },
  { path: 'git', label: 'Git' },
  { path: 'skills', label: 'Skills & Plugins' },
  { path: 'general', label: 'General' },
] as const;

/** Settings, one tab per concern, each at its own URL (`/settings` opens the LLM's). */
export default function SettingsPage() {
  return (
    <main className="page page-narrow settings">
      <h1>Settings</h1>
      <nav aria-label="Settings sections" className="tabs-list">
        {TABS.map((tab) => (
          <NavLink key={tab.path} to={`/settings/${tab.path}`} className="tab">
            {tab.label}
          </NavLink>
        ))}
      </nav>
      <Routes>
        <Route index element={<Navigate to="llm" replace />} />
        <Route path="llm" element={<LlmSettings />} />
        <Route path="secrets" element={<SecretsSettings />} />
        <Route path="api-keys" element={<ApiKeysSettings />} />
        <Route path="git" element={<GitSettings />} />
        <Route path="skills" element={<SkillsSettings />} />
        <Route path="general" element={<GeneralSettings />} />
        <Route path="*" element={<Navigate to="/settings/llm" replace />} />
      </Routes>
    </main>
  );
}
