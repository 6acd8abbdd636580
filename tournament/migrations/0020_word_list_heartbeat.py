from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0019_sanction_catalogue"),
    ]

    operations = [
        migrations.AddField(
            model_name="wordlist",
            name="heartbeat_at",
            field=models.DateTimeField(
                blank=True,
                help_text="While compiling: written every WORD_LIST_HEARTBEAT_SECONDS by the "
                "compile; a list whose heartbeat is WORD_LIST_SILENT_SECONDS old is marked failed.",
                null=True,
            ),
        ),
    ]
