import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <main className="page page-narrow">
      <h1>Page not found</h1>
      <p>
        There is no page at this address. <Link to="/">Go to your conversations</Link>.
      </p>
    </main>
  );
}
