import { buildLaunchLink } from '@bosun/protocol';
import { useId, useRef, useState } from 'react';
import { Button } from '../../ui/button.tsx';
import { Notice } from '../../ui/feedback.tsx';

/** The plugin's launch link (its parameters' defaults, the entry command as message), copied to the clipboard. */
export function LaunchLinkBox({
  spec,
  message,
  ready,
}: {
  spec: { source: string; ref: string | null; repo_path: string | null; parameters: Record<string, unknown> | null };
  message: string | null;
  ready: boolean;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const link = buildLaunchLink([spec], { message, baseUrl: window.location.origin });
  const copy = async () => {
    if (!link.url) return;
    try {
      await navigator.clipboard.writeText(link.url);
      setCopied('copied');
    } catch {
      // No clipboard (an insecure origin, a refused permission): the link is selected for a manual copy.
      setCopied('failed');
      input.current?.focus();
      input.current?.select();
    }
  };
  return (
    <div className="card stack launch-link-box">
      <h2 className="aside-heading">Share it</h2>
      <p className="muted hint-text">
        A launch link opens this plugin, with its default parameters, ready to review and start.
      </p>
      <Button onClick={copy} disabled={!ready || !link.url}>
        Copy launch link
      </Button>
      <output className="copy-status">
        {copied === 'copied' && <span className="copied">Copied to the clipboard.</span>}
        {copied === 'failed' && (
          <span>The clipboard is not available here: the link below is selected, copy it with Ctrl+C.</span>
        )}
      </output>
      {link.url ? (
        <div className="field">
          <label htmlFor={`${id}-link`}>Launch link</label>
          <input
            id={`${id}-link`}
            ref={input}
            className="input"
            readOnly
            value={link.url}
            onFocus={(event) => event.currentTarget.select()}
          />
        </div>
      ) : (
        ready && (
          <Notice tone="error">No link can be made: {link.problems.map((problem) => problem.msg).join('; ')}</Notice>
        )
      )}
    </div>
  );
}
