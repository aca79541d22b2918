import { NavLink } from 'react-router';

/** Bosun's mark and name, linking home (marked as the current page there). */
export function BrandLink() {
  return (
    <NavLink to="/" className="brand" aria-label="Bosun home">
      <span className="brand-mark" aria-hidden="true">
        ▲
      </span>
      Bosun
    </NavLink>
  );
}
