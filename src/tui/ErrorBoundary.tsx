// A render error must not paint a stack trace over the dashboard: it ends the app, and the
// error is reported in one line after the terminal is restored.
import { Component, type ReactNode } from 'react';

export class ErrorBoundary extends Component<{ onError: (error: Error) => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error): void {
    this.props.onError(error);
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}
