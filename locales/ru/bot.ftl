cmd-start = Начать и выбрать часовой пояс
cmd-add = Добавить задачу: /add текст время
cmd-list = Ваши ближайшие задачи
cmd-done = Завершить задачу: /done номер
cmd-delete = Удалить задачу: /delete номер
cmd-settings = Напоминать заранее по умолчанию
cmd-lang = Сменить язык
cmd-tz = Сменить часовой пояс
cmd-help = Что я умею
start-welcome = Привет! Я напоминаю о задачах. Просто напишите, что и когда.
tz-ask = В каком вы часовом поясе? Нажмите кнопку или напишите город, имя пояса IANA или смещение от UTC.
tz-example = Ташкент
tz-set = Часовой пояс: { $tz }. Сейчас у вас { $now }.
tz-unknown = Я не знаю такого часового пояса. Напишите город, имя пояса IANA или смещение от UTC.
tz-offset-range = Такого смещения от UTC нет нигде на Земле: бывают от -12 до +14.
lang-ask = Выберите язык:
lang-set = Теперь я говорю по-русски.
lang-unknown = Я не знаю такого языка. Я говорю по-английски, по-русски и по-узбекски.
help-title = Как мной пользоваться
help-add = Напишите задачу и время, до или после текста:
help-lead = Напомнить заранее:
help-repeat = Повторяющиеся задачи:
help-commands = /list — ваши задачи; /done 12 и /delete 12 завершают или удаляют задачу 12; /settings — напоминать заранее по умолчанию; /tz и /lang меняют часовой пояс и язык.
add-example = оплатить аренду завтра в 9:00
lead-example = встреча в пятницу в 15:00 за 30 минут
repeat-example = каждый понедельник в 10:00 планёрка
when-example = завтра в 9:00
settings-current = Новые задачи напоминаются: { $lead }.
settings-usage = Чтобы изменить, отправьте /settings и время, или /settings 0, чтобы напоминать в срок.
settings-example = /settings 30 мин
settings-set = Теперь новые задачи напоминаются: { $lead }.
settings-bad = Я не понимаю такое время.
task-saved = Задача сохранена
task-changed = Задача изменена
task-due = Срок: { $when }
task-remind = Напоминание: { $when }
task-repeats = Повтор: { $rule }
repeat-daily = каждый день
repeat-weekdays = по будням
repeat-weekly = каждую неделю
repeat-monthly = каждый месяц, { $day }-го числа
button-undo = ↩️ Отменить
button-change-time = 🕒 Изменить время
button-edit = ✏️ Изменить
button-delete = 🗑 Удалить
button-snooze = 💤 Отложить
button-prev = ◀️ Назад
button-next = Дальше ▶️
ask-when = Когда напомнить об этой задаче?
ask-snooze = Когда напомнить снова?
snooze-example = через 30 минут
ask-edit = Отправьте новое время или новый текст со временем.
list-title = { $count ->
    [one] У вас { $count } открытая задача
    [few] У вас { $count } открытые задачи
   *[other] У вас { $count } открытых задач
}
list-empty = У вас нет открытых задач. Напишите задачу со временем, чтобы добавить.
list-page = Страница { $page } из { $pages }
done-ok = Готово: { $text }
done-next = Готово. В следующий раз: { $when }
deleted = Удалено: { $text }
undone = Отменено, задача удалена: { $text }
snoozed = Напомню снова: { $when }.
callback-done = Готово ✅
callback-deleted = Удалено
callback-snoozed = Отложено
not-found = Задача не найдена. /list покажет ваши задачи.
stale-button = Эта кнопка больше не работает.
not-allowed-task = Изменить задачу может только её автор или администратор группы.
not-allowed-settings = Настройки группы может менять только администратор группы.
id-usage = Какая задача? Отправьте её номер из /list.
id-example-done = /done 12
id-example-delete = /delete 12
rate-limited = Слишком много сообщений сразу. Подождите минуту и попробуйте снова.
too-many-tasks = { $max ->
    [one] У вас уже { $max } открытая задача — это максимум. Сначала завершите или удалите одну (/list).
    [few] У вас уже { $max } открытые задачи — это максимум. Сначала завершите или удалите какие-нибудь (/list).
   *[other] У вас уже { $max } открытых задач — это максимум. Сначала завершите или удалите какие-нибудь (/list).
}
err-empty = Сообщение пустое. Напишите задачу и время.
err-too-long = Сообщение слишком длинное: не больше { $max } символов.
err-text-too-long = Текст задачи слишком длинный: { $len } символов, можно не больше { $max }.
err-no-text = О чём напомнить? Напишите задачу вместе со временем.
err-no-time = Я не нашёл здесь времени.
err-invalid-time = { $time } — такого времени нет: часы от 0 до 23, минуты от 0 до 59.
err-invalid-date = { $date } — такой даты нет в календаре.
err-invalid-day = Ни в одном месяце нет { $day }-го числа.
err-past = Это время уже прошло: { $when }.
err-too-far = Я принимаю даты только до конца { $year } года.
err-lead-too-long = Напоминание может прийти не раньше чем за { $days } дней до срока.
err-internal = У меня что-то сломалось. Ничего не потеряно, попробуйте ещё раз.
example-label = Например:
unknown-command = Я не знаю такой команды. /help покажет, что я умею.
lang-example = /lang uz
# Zones and first contact, /settings' buttons, /export (issue 14).
cmd-export = Задачи файлами для календаря и таблицы
tz-share-location = Или отправьте геопозицию, и я поставлю часовой пояс этого места.
button-share-location = 📍 Отправить геопозицию
tz-current = Ваш часовой пояс: { $tz }. Местное время: { $now }.
tz-location-bad = Не могу найти часовой пояс для этого места.
first-task-hint = Теперь напишите первую задачу со временем, например: купить хлеб завтра в 18:00
zone-tashkent = Ташкент
zone-samarkand = Самарканд
zone-moscow = Москва
zone-almaty = Алматы
zone-berlin = Берлин
zone-london = Лондон
zone-new-york = Нью-Йорк
zone-utc = UTC
button-lead-none = В срок
settings-saved = Сохранено ✅
export-empty = Нет открытых задач для выгрузки.
export-calendar = { $count ->
    [one] { $count } открытая задача для календаря: откройте файл, чтобы добавить её.
    [few] { $count } открытые задачи для календаря: откройте файл, чтобы добавить их.
   *[other] { $count } открытых задач для календаря: откройте файл, чтобы добавить их.
}
export-capped = Здесь первые { $max } из { $count } задач, ближайшие по сроку.
export-table = Те же задачи таблицей, для электронных таблиц.
