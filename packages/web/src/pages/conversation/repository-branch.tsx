/** The repository a conversation works in and its branch, if it has one. */
export function RepositoryBranch({
  repository,
  branch,
}: {
  repository: string | null | undefined;
  branch: string | null | undefined;
}) {
  if (!repository) return null;
  return (
    <span className="repo small" title="Repository and branch">
      <span aria-hidden="true">⎇ </span>
      <span className="visually-hidden">Repository </span>
      {repository}
      {branch && <span className="muted"> @ {branch}</span>}
    </span>
  );
}
