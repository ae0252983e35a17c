"""What bot processes coordinate between them: the named locks shared through PostgreSQL (IDENTIFY
buckets, the command sync) and the lock file that keeps a SQLite file to one process."""
