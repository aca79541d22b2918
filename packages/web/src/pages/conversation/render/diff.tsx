import { Suspense, lazy } from 'react';
import { Loading } from '../../../ui/feedback.tsx';
import type { DiffProps } from './diff-impl.tsx';

const DiffImpl = lazy(() => import('./diff-impl.tsx'));

/** A diff of two texts; jsdiff is loaded with the first diff shown. */
export function Diff(props: DiffProps) {
  return (
    <Suspense fallback={<Loading what="the changes" />}>
      <DiffImpl {...props} />
    </Suspense>
  );
}
