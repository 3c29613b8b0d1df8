"""The automation control plane: stored configuration, job runs, health and the scheduler."""
