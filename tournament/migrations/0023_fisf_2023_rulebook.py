# The rulebook of each event (issue 33): every event that exists when this runs was ruled by the
# rules before the FISF 2023 regulation, and keeps them ("before-2023": no result of an event
# already played changes); a new event is ruled by the regulation in force ("fisf-2023").

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0022_constraint_messages'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='ruling',
            name='ruling_code_valid',
        ),
        migrations.AddField(
            model_name='event',
            name='rulebook',
            field=models.CharField(choices=[('fisf-2023', 'FISF regulation in force (1 January 2023)'), ('before-2023', 'Before 2023 (the 2016 amendments)')], default='before-2023', help_text='The regulation the event is ruled by.', max_length=16),
        ),
        migrations.AlterField(
            model_name='event',
            name='rulebook',
            field=models.CharField(choices=[('fisf-2023', 'FISF regulation in force (1 January 2023)'), ('before-2023', 'Before 2023 (the 2016 amendments)')], default='fisf-2023', help_text='The regulation the event is ruled by.', max_length=16),
        ),
        migrations.AddField(
            model_name='submission',
            name='fallacious',
            field=models.BooleanField(default=False, help_text="The arbiter's decision (FISF 2023, 5.3.3): the word, at a place worth its score, forms a cross-word invalid but plausible (a fallacious junction)."),
        ),
        migrations.AlterField(
            model_name='ruling',
            name='code',
            field=models.CharField(choices=[('valid', 'Valid'), ('valid_warning', 'Valid, with a warning (announced score)'), ('reference_penalty', 'Reference wrong or missing: penalty'), ('final_letter_penalty', 'Final letter left out or changed: penalty (before 2023)'), ('invalid_word', 'Word not in the lexicon'), ('not_on_rack', 'Tiles not on the rack'), ('does_not_fit', 'Does not fit the board'), ('bad_reference', 'Wrong reference'), ('malformed', 'Blank or unreadable slip'), ('late', 'Late'), ('missing', 'No slip'), ('multiple', 'Several slips handed in'), ('fallacious_junction', 'Fallacious junction')], max_length=24),
        ),
        migrations.AddConstraint(
            model_name='event',
            constraint=models.CheckConstraint(condition=models.Q(('rulebook__in', ['fisf-2023', 'before-2023'])), name='event_rulebook_valid', violation_error_message='Choose a rulebook from the list.'),
        ),
        migrations.AddConstraint(
            model_name='ruling',
            constraint=models.CheckConstraint(condition=models.Q(('code__in', ['valid', 'valid_warning', 'reference_penalty', 'final_letter_penalty', 'invalid_word', 'not_on_rack', 'does_not_fit', 'bad_reference', 'malformed', 'late', 'missing', 'multiple', 'fallacious_junction'])), name='ruling_code_valid'),
        ),
    ]
