"""The app's screens: game menu, new-game setup, the game, and its dialogs."""
