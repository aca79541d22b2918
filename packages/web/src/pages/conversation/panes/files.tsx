import type { AgentServerClient } from '@bosun/client';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useApi } from '../../../api/client.tsx';
import { describeError } from '../../../api/errors.ts';
import { Button } from '../../../ui/button.tsx';
import { ErrorNotice, Loading } from '../../../ui/feedback.tsx';
import { Code } from '../render/code.tsx';

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
const join = (dir: string, name: string) => (dir === '.' ? name : `${dir.replace(/\/$/, '')}/${name}`);
const parent = (dir: string) => (dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) || '/' : '.');

/**
 * The workspace's files: a directory at a time (listed by the agent server's command route), a file viewed with
 * highlighting (the app's file route) and downloaded as it is.
 */
export function FilesPane({
  conversationId,
  agentServer,
  workingDir,
  running,
}: {
  conversationId: string;
  agentServer: AgentServerClient | undefined;
  workingDir: string | undefined;
  running: boolean;
}) {
  const [dir, setDir] = useState('.');
  const [file, setFile] = useState<string | undefined>(undefined);
  const [typed, setTyped] = useState('');
  if (!running || !agentServer)
    return <p className="muted">The sandbox does not run: resume it to browse its files.</p>;
  const open = (event: FormEvent) => {
    event.preventDefault();
    if (typed.trim()) setFile(typed.trim());
  };
  return (
    <div className="stack pane-files">
      <form className="row" onSubmit={open}>
        <label className="visually-hidden" htmlFor="file-path">
          File path
        </label>
        <input
          id="file-path"
          className="input file-path-input"
          placeholder="Open a file by its path"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
        <Button small type="submit">
          Open
        </Button>
      </form>
      {file ? (
        <FileView
          conversationId={conversationId}
          agentServer={agentServer}
          workingDir={workingDir}
          path={file}
          onClose={() => setFile(undefined)}
        />
      ) : (
        <DirectoryList
          agentServer={agentServer}
          workingDir={workingDir}
          dir={dir}
          onDir={setDir}
          onFile={(name) => setFile(join(dir, name))}
        />
      )}
    </div>
  );
}

function DirectoryList({
  agentServer,
  workingDir,
  dir,
  onDir,
  onFile,
}: {
  agentServer: AgentServerClient;
  workingDir: string | undefined;
  dir: string;
  onDir: (dir: string) => void;
  onFile: (name: string) => void;
}) {
  const listing = useQuery({
    queryKey: ['conversation-files', agentServer.http.baseUrl, workingDir, dir],
    queryFn: async () => {
      const output = await agentServer.post('/api/bash/execute_bash_command', {
        body: {
          command: `ls -1Ap --group-directories-first -- ${quote(dir)}`,
          ...(workingDir ? { cwd: workingDir } : {}),
          timeout: 20,
        },
      });
      if (output.exit_code !== 0) throw new Error((output.stderr ?? '').trim() || `ls failed (${output.exit_code})`);
      return (output.stdout ?? '').split('\n').filter(Boolean);
    },
    retry: false,
  });
  return (
    <nav aria-label="Files of the workspace">
      <div className="row">
        <code className="dir-path">{dir === '.' ? (workingDir ?? 'workspace') : dir}</code>
        <span className="spacer" />
        {dir !== '.' && (
          <Button small onClick={() => onDir(parent(dir))}>
            Up
          </Button>
        )}
        <Button small busy={listing.isFetching} onClick={() => listing.refetch()}>
          Refresh
        </Button>
      </div>
      {listing.isPending ? (
        <Loading what="the files" />
      ) : listing.isError ? (
        <ErrorNotice error={listing.error} onRetry={() => listing.refetch()} />
      ) : listing.data.length === 0 ? (
        <p className="muted small">This directory is empty.</p>
      ) : (
        <ul className="file-list">
          {listing.data.map((name) => {
            const isDir = name.endsWith('/');
            return (
              <li key={name}>
                <button
                  type="button"
                  className="file-entry"
                  onClick={() => (isDir ? onDir(join(dir, name.slice(0, -1))) : onFile(name))}
                >
                  <span aria-hidden="true">{isDir ? '▸' : '·'}</span> {name}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </nav>
  );
}

function FileView({
  conversationId,
  agentServer,
  workingDir,
  path,
  onClose,
}: {
  conversationId: string;
  agentServer: AgentServerClient;
  workingDir: string | undefined;
  path: string;
  onClose: () => void;
}) {
  const api = useApi();
  const [downloadError, setDownloadError] = useState<string | undefined>(undefined);
  const text = useQuery({
    queryKey: ['conversation-file', conversationId, path],
    queryFn: async () =>
      (
        await api.get('/api/v1/app-conversations/{conversation_id}/file', {
          params: { conversation_id: conversationId },
          query: { file_path: path },
        })
      ).replace(/\n$/, ''),
    retry: false,
  });
  const download = async () => {
    setDownloadError(undefined);
    try {
      const absolute = path.startsWith('/') ? path : `${workingDir ?? ''}/${path.replace(/^\.\//, '')}`;
      const { bytes, contentType } = await agentServer.downloadFile(absolute);
      const url = URL.createObjectURL(
        new Blob([bytes as BlobPart], { type: contentType || 'application/octet-stream' }),
      );
      const link = document.createElement('a');
      link.href = url;
      link.download = path.split('/').pop() ?? 'file';
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (failure) {
      setDownloadError(describeError(failure));
    }
  };
  return (
    <section className="stack" aria-label={`File ${path}`}>
      <div className="row">
        <Button small onClick={onClose}>
          ← Back to the files
        </Button>
        <code className="dir-path">{path}</code>
        <span className="spacer" />
        <Button small onClick={download}>
          Download
        </Button>
      </div>
      {downloadError && <p className="text-danger small">{downloadError}</p>}
      {text.isPending ? (
        <Loading what="the file" />
      ) : text.isError ? (
        <ErrorNotice error={text.error} />
      ) : (
        <Code code={text.data} language={path} firstLine={1} label={`Content of ${path}`} className="file-view" />
      )}
    </section>
  );
}
