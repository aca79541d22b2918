import { Component, type ReactNode, Suspense } from 'react';
import { ErrorNotice, Loading } from '../ui/feedback.tsx';

/** A lazily loaded page: a loading line while its chunk arrives, a sentence (never a blank page) if it fails. */
export function Suspended({ page }: { page: ReactNode }) {
  return (
    <PageErrorBoundary>
      <Suspense
        fallback={
          <main className="page">
            <Loading what="the page" />
          </main>
        }
      >
        {page}
      </Suspense>
    </PageErrorBoundary>
  );
}

class PageErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: undefined };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    if (this.state.error === undefined) return this.props.children;
    return (
      <main className="page page-narrow">
        <h1>This page failed</h1>
        <ErrorNotice error={this.state.error} onRetry={() => window.location.reload()} />
      </main>
    );
  }
}
