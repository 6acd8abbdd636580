# Mort subite (FISF 2023, 3.8.3) as a game's formula (issue 36).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0025_game_formula'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='game',
            name='game_formula_valid',
        ),
        migrations.AlterField(
            model_name='game',
            name='formula',
            field=models.CharField(choices=[('standard', 'Standard duplicate'), ('joker', 'Joker'), ('7sur8', '7 sur 8'), ('7et8', '7 et 8'), ('789', '7, 8 et 9'), ('detonante', 'Détonante'), ('joker+7sur8', 'Joker, 7 sur 8'), ('joker+7et8', 'Joker, 7 et 8'), ('joker+789', 'Joker, 7, 8 et 9'), ('mortsubite', 'Mort subite')], default='standard', help_text='Standard duplicate or an original formula (docs/formulas.md).', max_length=24),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(condition=models.Q(('formula__in', ['standard', 'joker', '7sur8', '7et8', '789', 'detonante', 'joker+7sur8', 'joker+7et8', 'joker+789', 'mortsubite'])), name='game_formula_valid', violation_error_message='Choose a formula from the list.'),
        ),
    ]
