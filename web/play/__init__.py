"""Players' phones: the QR link that signs a phone in, the player page, the QR sheet."""
