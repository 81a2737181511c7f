# Shared by the chat and the reminders.
duration-minutes = { $n } daqiqa
duration-hours = { $n } soat
duration-days = { $n } kun
