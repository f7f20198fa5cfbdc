import { useState, type SyntheticEvent } from 'react';
import { useStore } from '../hooks';
import { RequestError } from '../net/connection';

/**
 * Sign up or log in: a name (3–24 letters, digits, _ . -) and a password (8 or more characters). A
 * staff account's login is answered TOTP_REQUIRED once the password was right: the form then asks for
 * the six-digit code of its authenticator and sends the three together.
 */
export function Auth() {
  const store = useStore();
  const [mode, setMode] = useState<'login' | 'signup'>('signup');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const request =
      mode === 'signup' ? store.signUp(name, password) : store.logIn(name, password, totp ?? undefined);
    request
      .catch((failure: unknown) => {
        if (failure instanceof RequestError && failure.code === 'TOTP_REQUIRED' && totp === null) {
          setTotp('');
          return;
        }
        setError(failure instanceof Error ? failure.message : String(failure));
      })
      .finally(() => {
        setBusy(false);
      });
  };

  return (
    <section className="auth" aria-labelledby="auth-title">
      <h1 id="auth-title">{mode === 'signup' ? 'Create your Felt account' : 'Log in to Felt'}</h1>
      <form onSubmit={submit}>
        <label>
          Name
          <input
            name="name"
            autoComplete="username"
            value={name}
            minLength={3}
            maxLength={24}
            pattern="[A-Za-z0-9_.\-]+"
            required
            onChange={(event) => {
              setName(event.target.value);
            }}
          />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
            value={password}
            minLength={mode === 'signup' ? 8 : 1}
            required
            onChange={(event) => {
              setPassword(event.target.value);
            }}
          />
        </label>
        {mode === 'login' && totp !== null ? (
          <label>
            Authenticator code
            <input
              name="totp"
              autoComplete="one-time-code"
              inputMode="numeric"
              value={totp}
              pattern="[0-9]{6}"
              maxLength={6}
              required
              autoFocus
              onChange={(event) => {
                setTotp(event.target.value.trim());
              }}
            />
          </label>
        ) : null}
        {error === null ? null : (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button className="primary" type="submit" disabled={busy}>
          {mode === 'signup' ? 'Sign up' : 'Log in'}
        </button>
      </form>
      <p className="switch">
        {mode === 'signup' ? 'Already have an account?' : 'New to Felt?'}
        <button
          type="button"
          className="link"
          onClick={() => {
            setMode(mode === 'signup' ? 'login' : 'signup');
            setTotp(null);
            setError(null);
          }}
        >
          {mode === 'signup' ? 'Log in' : 'Sign up'}
        </button>
      </p>
    </section>
  );
}
