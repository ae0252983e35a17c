"""The schema, one folder of numbered SQL files per dialect (read by bot/storage/migrations.py). A package
only so that the wheel installs it inside bot/ and an editable install maps it the same way."""
