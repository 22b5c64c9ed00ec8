/** The {@code distlock explore} subcommand: lock-chaos's fault-point explorer on the command line. */
package io.distlock.cli.explore;
